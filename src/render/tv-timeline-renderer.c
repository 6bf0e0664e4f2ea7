/* tv-timeline-renderer.c: axis, overview, lanes and legend with cairo
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A 1920x1080 timeline of 64 lanes has some 120,000 column-bands of up to
 * six colours each: as cairo rectangles that is far more than a frame's
 * budget.  So the bands are written pixel by pixel into one image, at the
 * surface's resolution, and painted once with the nearest filter; only the
 * text, the grid, the selection and the legend are cairo drawing.  Lane
 * labels are shaped once per timeline and font; other texts (axis labels,
 * the legend) are kept by their text.
 */
#include "tv-timeline-renderer.h"

#include <math.h>
#include <string.h>

#include "tv-draw.h"

#define DEFAULT_LANE_HEIGHT      18.0
#define DEFAULT_COLLAPSED_HEIGHT 4.0
#define DEFAULT_OVERVIEW_HEIGHT  40.0
#define LABEL_PADDING            6.0
#define MIN_LABEL_WIDTH          56.0
#define MAX_LABEL_WIDTH          220.0
/* Gap between the overview and the lanes. */
#define OVERVIEW_GAP             4.0
/* Pixels at least between two ticks of the axis. */
#define MIN_TICK_SPACING         80.0
#define SWATCH_SIZE              12.0
#define LEGEND_SPACING           18.0
/* The exception strip along a lane's top, in pixels. */
#define EXCEPTION_STRIP          3
/* How high idle (and unknown) samples stand, against busy ones: a lane's
 * idle stretches are a low floor, its busy ones stand out. */
#define IDLE_WEIGHT              0.4
/* A sample's state holds for this many sampling intervals at most when
 * no sample follows: a sampler that misses a tick or two (CPython's
 * often does) leaves no holes. */
#define HOLD_INTERVALS           4.0

typedef enum
{
  ROW_LANE,
  ROW_GROUP,
} RowKind;

typedef struct
{
  double  y;             /* pixels below the first row's top */
  double  height;        /* with the gap below */
  guint   lane;
  guint32 interpreter;
  guint8  kind;          /* RowKind */
  guint8  flags;         /* TvTimelineLaneFlags */
} Row;

typedef struct
{
  double text_height;
  double plot_x;
  double plot_width;
  double axis_height;
  double overview_y;
  double overview_height;
  double lanes_y;
  double lanes_height;
  double rows_y;         /* the viewport's y of the rows' y 0 (scrolled) */
  double content_height;
  double legend_y;
  double legend_height;
  double legend_x[TV_TIMELINE_N_STATES];
  double legend_width[TV_TIMELINE_N_STATES];
} Geometry;

/* Pixel columns [left, right) of the viewport. */
typedef struct
{
  double left;
  double right;
} Span;

struct _TvTimelineRenderer
{
  /* The fonts, and other texts (axis labels, legend, headers) kept by
   * their text. */
  TvDrawText            text;

  /* Lane labels of one timeline, made as they are first needed. */
  TvTimeline           *label_timeline;
  char                 *label_main;
  PangoLayout         **lane_labels;
  double                labels_width;    /* widest label, < 0 until known */

  /* Rows of the last geometry, and what they were laid out for: they
   * stay while the style's lanes_serial (not 0) and the heights do. */
  Row                  *rows;
  guint                 n_rows;
  guint                 rows_capacity;
  TvTimeline           *rows_timeline;
  guint                 rows_serial;
  double                rows_heights[3];  /* lane, collapsed, header */
  gboolean              rows_headers;
  double                rows_height;
  guint                 n_layouts;
  /* Lanes with samples, of label_timeline. */
  guint                 busy_lanes;

  /* Scratch space of a draw, kept for the next. */
  TvTimelineColumn     *columns;
  const TvTimelineColumn **shown;
  guint                 columns_capacity;
  cairo_surface_t      *raster;
  guint8               *covered;         /* per row of the raster */
  guint                 covered_capacity;
  GArray               *spans;           /* Span: the ranges drawn */

  /* The heatmap's cells as an image, a pixel each, for that heatmap in
   * light or dark. */
  TvTimelineHeatmap    *cells_heatmap;
  gboolean              cells_dark;
  cairo_surface_t      *cells;
};

/* ------------------------------------------------------------------------ */
/* Colours                                                                   */
/* ------------------------------------------------------------------------ */

/* round () for what is never negative, without a call into libm: the
 * drawing runs it for every column of every lane. */
static inline int
round_up_half (double x)
{
  return (int) (x + 0.5);
}

/* Opaque, as the bands' image holds it. */
static inline guint32
pack_color (TvTimelineColor c)
{
  return 0xff000000u | tv_color_pack (c);
}

TvTimelineColor
tv_timeline_background_color (gboolean dark)
{
  return tv_palette_background (dark);
}

TvTimelineColor
tv_timeline_state_color (TvTimelineState state,
                         gboolean        dark)
{
  /* The flame graph's thread-state colours are these too (state_color ()
   * in tv-flame-renderer.c); the test checks that they stay so. */
  static const TvPaletteState states[TV_TIMELINE_N_STATES] = {
    [TV_TIMELINE_STATE_RUNNING] = TV_PALETTE_STATE_RUNNING,
    [TV_TIMELINE_STATE_NATIVE] = TV_PALETTE_STATE_NATIVE,
    [TV_TIMELINE_STATE_WAITING] = TV_PALETTE_STATE_WAITING,
    [TV_TIMELINE_STATE_EXCEPTION] = TV_PALETTE_STATE_EXCEPTION,
    [TV_TIMELINE_STATE_IDLE] = TV_PALETTE_STATE_IDLE,
    [TV_TIMELINE_STATE_UNKNOWN] = TV_PALETTE_STATE_UNKNOWN,
  };

  g_return_val_if_fail (state < TV_TIMELINE_N_STATES, tv_timeline_background_color (dark));
  return tv_palette_state (states[state], dark);
}

void
tv_timeline_style_init (TvTimelineStyle *style,
                        TvTimeline      *timeline,
                        double           width,
                        double           height)
{
  g_return_if_fail (style != NULL);
  g_return_if_fail (timeline != NULL);

  memset (style, 0, sizeof *style);
  style->width = width;
  style->height = height;
  style->t0 = 0;
  style->t1 = MAX (tv_timeline_get_duration (timeline), 1);
  style->cursor_time = NAN;
  style->selected_state = -1;
}

/* ------------------------------------------------------------------------ */
/* Text                                                                      */
/* ------------------------------------------------------------------------ */

static void
clear_lane_labels (TvTimelineRenderer *self)
{
  if (self->lane_labels != NULL)
    {
      guint n = tv_timeline_get_n_lanes (self->label_timeline);

      for (guint i = 0; i < n; i++)
        g_clear_object (&self->lane_labels[i]);
    }
  g_clear_pointer (&self->lane_labels, g_free);
  g_clear_pointer (&self->label_timeline, tv_timeline_unref);
  g_clear_pointer (&self->label_main, g_free);
  self->labels_width = -1;
  self->busy_lanes = G_MAXUINT;
}

/* FONT, or the default for NULL, and its metrics. */
static void
ensure_font (TvTimelineRenderer         *self,
             const PangoFontDescription *font)
{
  if (tv_draw_text_set_font (&self->text, font))
    clear_lane_labels (self);
}

static void
ensure_fonts (TvTimelineRenderer    *self,
              TvTimeline            *timeline,
              const TvTimelineStyle *style)
{
  ensure_font (self, style->font);
  if (self->label_timeline != timeline || g_strcmp0 (self->label_main, style->main_label) != 0)
    {
      clear_lane_labels (self);
      self->label_timeline = tv_timeline_ref (timeline);
      self->label_main = g_strdup (style->main_label);
      self->lane_labels = g_new0 (PangoLayout *, MAX (tv_timeline_get_n_lanes (timeline), 1));
    }
}

static PangoLayout *
lane_label (TvTimelineRenderer *self,
            TvTimeline         *timeline,
            guint               lane)
{
  if (self->lane_labels[lane] == NULL)
    {
      const TvTimelineLane *info = tv_timeline_get_lane (timeline, lane);
      g_autofree char *id = g_strdup_printf ("%" G_GUINT64_FORMAT, info->thread_id);
      PangoLayout *layout;

      if (info->main_thread && self->label_main != NULL && self->label_main[0] != '\0')
        {
          g_autofree char *main_label = g_utf8_make_valid (self->label_main, -1);
          g_autofree char *text = g_strconcat (id, "  ", main_label, NULL);
          PangoAttrList *attrs = pango_attr_list_new ();
          PangoAttribute *bold = pango_attr_weight_new (PANGO_WEIGHT_BOLD);

          layout = tv_draw_text_new_layout (&self->text, text, FALSE);
          bold->start_index = strlen (id) + 2;
          bold->end_index = strlen (text);
          pango_attr_list_insert (attrs, bold);
          pango_layout_set_attributes (layout, attrs);
          pango_attr_list_unref (attrs);
          /* Too long (a long translation): the id's first digits go, which
           * the threads of one process mostly share, never its last ones
           * or the word that says it is the main thread. */
          pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_START);
        }
      else
        {
          layout = tv_draw_text_new_layout (&self->text, id, FALSE);
          /* Thread ids differ in their middle digits as often as in their
           * ends. */
          pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_MIDDLE);
        }
      self->lane_labels[lane] = layout;
    }
  return self->lane_labels[lane];
}

/* A header's text: FORMAT must hold one "%u" and no other conversion (it
 * comes from a translation); otherwise the number alone. */
static char *
format_interpreter (const char *format,
                    guint32     interpreter)
{
  const char *conversion = NULL;

  for (const char *p = format; *p != '\0'; p++)
    if (p[0] == '%')
      {
        if (p[1] == '%')
          p++;
        else if (p[1] == 'u' && conversion == NULL)
          conversion = p;
        else
          return g_strdup_printf ("%u", interpreter);
      }
  if (conversion == NULL)
    return g_strdup_printf ("%u", interpreter);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
  return g_strdup_printf (format, interpreter);
#pragma GCC diagnostic pop
}

/* ------------------------------------------------------------------------ */
/* Geometry                                                                  */
/* ------------------------------------------------------------------------ */

static double
labels_width (TvTimelineRenderer    *self,
              TvTimeline            *timeline,
              const TvTimelineStyle *style)
{
  if (style->label_width > 0)
    return style->label_width;
  if (self->labels_width < 0)
    {
      double widest = 0;
      guint longest = G_MAXUINT, longest_digits = 0;

      /* Shaping thousands of labels to find the widest would take a
       * while: digits are as wide as each other in nearly every font, so
       * the label with the most digits is the widest, but for the main
       * threads', which are measured. */
      for (guint i = 0; i < tv_timeline_get_n_lanes (timeline); i++)
        {
          const TvTimelineLane *info = tv_timeline_get_lane (timeline, i);
          guint digits = 1;

          if (info->main_thread)
            {
              widest = MAX (widest, tv_draw_layout_width (lane_label (self, timeline, i)));
              continue;
            }
          for (guint64 id = info->thread_id; id >= 10; id /= 10)
            digits++;
          if (digits > longest_digits)
            {
              longest = i;
              longest_digits = digits;
            }
        }
      if (longest != G_MAXUINT)
        widest = MAX (widest, tv_draw_layout_width (lane_label (self, timeline, longest)));
      self->labels_width = widest;
    }
  {
    double widest = self->labels_width;

    if (style->overview_label != NULL)
      widest = MAX (widest, tv_draw_layout_width (tv_draw_text_lookup (&self->text, style->overview_label, FALSE)));
    return round (CLAMP (widest + 2 * LABEL_PADDING, MIN_LABEL_WIDTH, MAX_LABEL_WIDTH));
  }
}

static guint8
lane_flags (const TvTimelineStyle *style,
            guint                  lane)
{
  return style->lane_flags != NULL ? style->lane_flags[lane] : 0;
}

static void
add_row (TvTimelineRenderer *self,
         const Row          *row)
{
  if (self->n_rows == self->rows_capacity)
    {
      self->rows_capacity = MAX (64, self->rows_capacity * 2);
      self->rows = g_renew (Row, self->rows, self->rows_capacity);
    }
  self->rows[self->n_rows++] = *row;
}

/* Where everything goes, for STYLE; the rows go to self->rows. */
static void
compute_geometry (TvTimelineRenderer    *self,
                  TvTimeline            *timeline,
                  const TvTimelineStyle *style,
                  Geometry              *g)
{
  double lane_height = style->lane_height > 0 ? style->lane_height : DEFAULT_LANE_HEIGHT;
  double collapsed_height = style->collapsed_height > 0 ? style->collapsed_height
                                                         : DEFAULT_COLLAPSED_HEIGHT;
  double header_height;
  guint n_order, n_interpreters;
  const guint32 *order = tv_timeline_get_order (timeline, &n_order);
  gboolean headers;
  double y, x;
  gboolean have_group = FALSE;
  guint32 group = 0;

  ensure_fonts (self, timeline, style);
  tv_timeline_get_interpreters (timeline, &n_interpreters);
  headers = n_interpreters > 1 && style->interpreter_format != NULL;

  memset (g, 0, sizeof *g);
  g->text_height = ceil (self->text.ascent + self->text.descent);
  header_height = g->text_height + 6;
  g->plot_x = MIN (labels_width (self, timeline, style), MAX (style->width - 1, 0));
  g->plot_width = MAX (style->width - g->plot_x, 1);
  g->axis_height = g->text_height + 10;
  g->overview_y = g->axis_height;
  g->overview_height = style->overview_height > 0 ? style->overview_height
                                                  : DEFAULT_OVERVIEW_HEIGHT;
  g->lanes_y = g->overview_y + g->overview_height + OVERVIEW_GAP;
  g->legend_height = g->text_height + 12;
  g->legend_y = MAX (style->height - g->legend_height, g->lanes_y);
  g->lanes_height = MAX (g->legend_y - g->lanes_y - 1, 0);

  g->rows_y = g->lanes_y - style->scroll_y;
  if (style->lanes_serial == 0 || style->lanes_serial != self->rows_serial
      || timeline != self->rows_timeline || lane_height != self->rows_heights[0]
      || collapsed_height != self->rows_heights[1] || header_height != self->rows_heights[2]
      || headers != self->rows_headers)
    {
      /* A row per lane that shows: made again only when the lanes change,
       * not at every frame, pointer motion or scroll. */
      self->n_rows = 0;
      y = 0;
      for (guint p = 0; p < n_order; p++)
        {
          guint lane = order[p];
          const TvTimelineLane *info = tv_timeline_get_lane (timeline, lane);
          guint8 flags = lane_flags (style, lane);
          Row row = { 0 };

          if (flags & TV_TIMELINE_LANE_HIDDEN)
            continue;
          if (headers && (!have_group || info->interpreter_id != group))
            {
              row.y = y;
              row.height = header_height;
              row.kind = ROW_GROUP;
              row.lane = G_MAXUINT;
              row.interpreter = info->interpreter_id;
              add_row (self, &row);
              y += header_height;
            }
          have_group = TRUE;
          group = info->interpreter_id;
          row.y = y;
          row.height = (flags & TV_TIMELINE_LANE_COLLAPSED) ? collapsed_height : lane_height;
          row.kind = ROW_LANE;
          row.lane = lane;
          row.interpreter = info->interpreter_id;
          row.flags = flags;
          add_row (self, &row);
          y += row.height;
        }
      if (self->rows_timeline != timeline)
        {
          g_clear_pointer (&self->rows_timeline, tv_timeline_unref);
          self->rows_timeline = tv_timeline_ref (timeline);
        }
      self->rows_serial = style->lanes_serial;
      self->rows_heights[0] = lane_height;
      self->rows_heights[1] = collapsed_height;
      self->rows_heights[2] = header_height;
      self->rows_headers = headers;
      self->rows_height = y;
      self->n_layouts++;
    }
  g->content_height = self->rows_height;

  x = LABEL_PADDING;
  for (guint s = 0; s < TV_TIMELINE_N_STATES; s++)
    {
      const char *text = style->state_labels[s];

      g->legend_x[s] = x;
      g->legend_width[s] = SWATCH_SIZE;
      if (text != NULL && text[0] != '\0')
        g->legend_width[s] += 5 + ceil (tv_draw_layout_width (tv_draw_text_lookup (&self->text, text, FALSE)));
      x += g->legend_width[s] + LEGEND_SPACING;
    }
}

static double
time_to_x (const TvTimelineStyle *style,
           const Geometry        *g,
           double                 time)
{
  return g->plot_x + (time - style->t0) / (style->t1 - style->t0) * g->plot_width;
}

static double
x_to_time (const TvTimelineStyle *style,
           const Geometry        *g,
           double                 x)
{
  return style->t0 + (x - g->plot_x) / g->plot_width * (style->t1 - style->t0);
}

static gboolean
style_valid (const TvTimelineStyle *style)
{
  return style->width > 0 && style->height > 0 && isfinite (style->t0) && isfinite (style->t1)
         && style->t1 > style->t0;
}

/* The first row that ends below Y (in the rows' pixels), by bisection
 * (rows are sorted by y); n_rows when there is none. */
static guint
first_row_below (TvTimelineRenderer *self,
                 double              y)
{
  guint lo = 0, hi = self->n_rows;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (self->rows[mid].y + self->rows[mid].height <= y)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/* The row at Y (in the rows' pixels), by bisection, or NULL. */
static const Row *
find_row (TvTimelineRenderer *self,
          double              y)
{
  guint lo = 0, hi = self->n_rows;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (self->rows[mid].y <= y)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo == 0)
    return NULL;
  if (y < self->rows[lo - 1].y + self->rows[lo - 1].height)
    return &self->rows[lo - 1];
  return NULL;
}

/* ------------------------------------------------------------------------ */
/* Axis                                                                      */
/* ------------------------------------------------------------------------ */

/* Groups the digits of the integer part of NUMBER by three, with narrow
 * no-break spaces, from five digits on. */
static void
append_grouped (GString    *out,
                const char *number)
{
  const char *digits = number[0] == '-' ? number + 1 : number;
  gsize n = strspn (digits, "0123456789");

  if (digits != number)
    g_string_append (out, "\xe2\x88\x92");   /* minus sign */
  for (gsize i = 0; i < n; i++)
    {
      if (n >= 5 && i > 0 && (n - i) % 3 == 0)
        g_string_append (out, "\xe2\x80\xaf");
      g_string_append_c (out, digits[i]);
    }
  g_string_append (out, digits + n);
}

/* The label of a tick at TIME for ticks STEP apart: seconds from steps of
 * 100 ms, milliseconds from steps of 100 µs, microseconds below. */
static char *
tick_label (double time,
            double step)
{
  char buffer[G_ASCII_DTOSTR_BUF_SIZE];
  double divisor;
  const char *unit;
  GString *out = g_string_new (NULL);

  if (step >= 100000)
    divisor = 1e6, unit = "s";
  else if (step >= 100)
    divisor = 1e3, unit = "ms";
  else
    divisor = 1, unit = "\xc2\xb5s";
  /* Steps are 1, 2 or 5 times a power of ten, at least a tenth of the
   * unit: one decimal at most. */
  if (fabs (time) < step / 2)
    g_strlcpy (buffer, "0", sizeof buffer);
  else
    g_ascii_formatd (buffer, sizeof buffer, step / divisor < 0.999 ? "%.1f" : "%.0f",
                     time / divisor);
  append_grouped (out, buffer);
  g_string_append_printf (out, " %s", unit);
  return g_string_free (out, FALSE);
}

/* Ticks of the axis: a step of 1, 2 or 5 times a power of ten of
 * microseconds, the smallest that keeps the labels apart. */
static guint
compute_ticks (TvTimelineRenderer    *self,
               const TvTimelineStyle *style,
               const Geometry        *g,
               double                *step_out,
               GArray                *times,
               GPtrArray             *labels)
{
  double per_pixel = (style->t1 - style->t0) / g->plot_width;
  double spacing = MIN_TICK_SPACING;
  double step = 1;

  for (guint attempt = 0; attempt < 4; attempt++)
    {
      double widest = 0;
      double first;

      step = 1;
      for (double decade = 1; decade < 1e19; decade *= 10)
        {
          static const double multiples[] = { 1, 2, 5 };
          gboolean found = FALSE;

          for (guint m = 0; m < G_N_ELEMENTS (multiples) && !found; m++)
            if (multiples[m] * decade / per_pixel >= spacing)
              {
                step = multiples[m] * decade;
                found = TRUE;
              }
          if (found)
            break;
          step = 10 * decade;
        }

      g_array_set_size (times, 0);
      g_ptr_array_set_size (labels, 0);
      first = ceil (style->t0 / step);
      for (double k = first; k * step < style->t1 && times->len < 1000; k++)
        {
          double t = k * step;
          char *label = tick_label (t, step);

          g_array_append_val (times, t);
          g_ptr_array_add (labels, label);
          widest = MAX (widest, tv_draw_layout_width (tv_draw_text_lookup (&self->text, label, FALSE)));
        }
      if (widest + 12 <= step / per_pixel)
        break;
      spacing = widest + 12;
    }
  *step_out = step;
  return times->len;
}

guint
tv_timeline_renderer_get_ticks (TvTimelineRenderer    *self,
                                TvTimeline            *timeline,
                                const TvTimelineStyle *style,
                                double               **times_out,
                                char                ***labels_out)
{
  g_autoptr(GArray) times = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GPtrArray) labels = g_ptr_array_new_with_free_func (g_free);
  Geometry g;
  double step;
  guint n;

  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (timeline != NULL, 0);
  g_return_val_if_fail (style != NULL, 0);

  if (!style_valid (style))
    n = 0;
  else
    {
      compute_geometry (self, timeline, style, &g);
      n = compute_ticks (self, style, &g, &step, times, labels);
    }
  if (times_out != NULL)
    *times_out = (double *) g_array_free (g_steal_pointer (&times), FALSE);
  if (labels_out != NULL)
    {
      g_ptr_array_add (labels, NULL);
      g_ptr_array_set_free_func (labels, NULL);
      *labels_out = (char **) g_ptr_array_free (g_steal_pointer (&labels), FALSE);
    }
  return n;
}

/* ------------------------------------------------------------------------ */
/* Bands                                                                     */
/* ------------------------------------------------------------------------ */

/* The states a band stacks, from the bottom, and what is shown for them. */
enum
{
  STACK_RUNNING,
  STACK_NATIVE,
  STACK_WAITING,
  STACK_UNKNOWN,
  STACK_IDLE,
  N_STACK
};

static const TvTimelineState stack_states[N_STACK] = {
  TV_TIMELINE_STATE_RUNNING,
  TV_TIMELINE_STATE_NATIVE,
  TV_TIMELINE_STATE_WAITING,
  TV_TIMELINE_STATE_UNKNOWN,
  TV_TIMELINE_STATE_IDLE,
};

typedef struct
{
  guint32 *pixels;
  int      stride;          /* in pixels */
  int      width;
  int      clip_top;
  int      clip_bottom;
  double   scale_y;
  guint32  stack[N_STACK];
  guint32  track;
  TvTimelineColor track_color;
  TvTimelineColor exception_color;
  TvTimelineColor stack_colors[N_STACK];
} Raster;

/* The stacked states of a column, as tv_timeline_column_get_state ()
 * counts them. */
static inline void
column_stack (const TvTimelineColumn *c,
              guint64                *s)
{
  guint64 idle = c->counts[TV_TIMELINE_COUNT_IDLE];
  guint64 unknown = MIN (c->counts[TV_TIMELINE_COUNT_UNKNOWN], idle);

  s[STACK_RUNNING] = c->counts[TV_TIMELINE_COUNT_HAS_GIL];
  s[STACK_NATIVE] = c->counts[TV_TIMELINE_COUNT_NATIVE];
  s[STACK_WAITING] = c->samples - s[STACK_RUNNING] - s[STACK_NATIVE] - idle;
  s[STACK_UNKNOWN] = unknown;
  s[STACK_IDLE] = idle - unknown;
}

static inline void
fill_column (const Raster *r,
             int           x,
             int           top,
             int           bottom,
             guint32       argb)
{
  guint32 *p;

  top = MAX (top, r->clip_top);
  bottom = MIN (bottom, r->clip_bottom);
  p = r->pixels + (gsize) MAX (top, 0) * r->stride + x;
  for (int y = top; y < bottom; y++, p += r->stride)
    *p = argb;
}

/* Which column each pixel column shows: its own, or when it has no
 * samples, the last one with samples if that is less than one sampling
 * interval (HOLD columns) before it; before the first, BEFORE (the
 * samples before the window) for its first BEFORE_COLUMNS columns. */
static void
hold_columns (const TvTimelineColumn  *columns,
              const TvTimelineColumn **shown,
              guint                    n,
              double                   hold,
              const TvTimelineColumn  *before,
              double                   before_columns)
{
  int last = -1;

  for (guint x = 0; x < n; x++)
    {
      if (columns[x].samples > 0)
        {
          shown[x] = &columns[x];
          last = x;
        }
      else if (last >= 0 && (double) (x - last) < hold)
        shown[x] = &columns[last];
      else if (last < 0 && before != NULL && (double) x < before_columns)
        shown[x] = before;
      else
        shown[x] = NULL;
    }
}

/* The samples a lane (or the overview) shows at the left edge of a window
 * it is zoomed into: those of the lane's last timestamp before the window
 * (of the overview's last interval), and for how many columns they hold.
 * FALSE when nothing holds. */
static gboolean
held_before (TvTimeline            *timeline,
             guint                  lane,
             const TvTimelineStyle *style,
             double                 column_us,
             TvTimelineColumn      *held,
             double                *n_columns)
{
  double interval = HOLD_INTERVALS * tv_timeline_get_interval (timeline);
  guint64 start = tv_timeline_time_to_timestamp (timeline, style->t0);
  guint64 previous, from;

  if (interval <= column_us || !tv_timeline_find_previous (timeline, lane, start, &previous)
      || (double) (start - previous) >= interval)
    return FALSE;
  from = lane == TV_TIMELINE_ALL ? start - MIN ((guint64) interval, start) : previous;
  if (tv_timeline_count_range (timeline, lane, from, start, held) == 0)
    return FALSE;
  *n_columns = ((double) (previous - tv_timeline_get_origin (timeline)) + interval - style->t0)
               / column_us;
  return TRUE;
}

/* How full a lane's column is: its samples against what one thread gives
 * in a column (EXPECTED), counting whole samples only, so that the jitter
 * of the sampling clock does not make a busy lane ragged. */
static inline double
column_density (const TvTimelineColumn *c,
                double                  expected)
{
  if (expected < 1)
    return 1;
  return MIN (1.0, (double) c->samples / floor (expected));
}

static void
paint_exception (const Raster           *r,
                 int                     x,
                 int                     top,
                 int                     bottom,
                 const TvTimelineColumn *c)
{
  double share;
  int strip;

  if (c->counts[TV_TIMELINE_COUNT_EXCEPTION] == 0)
    return;
  share = (double) c->counts[TV_TIMELINE_COUNT_EXCEPTION] / c->samples;
  strip = MAX (1, MIN (round_up_half (EXCEPTION_STRIP * r->scale_y), (bottom - top) / 3));
  fill_column (r, x, top, top + strip,
               pack_color (tv_color_mix (r->track_color, r->exception_color, 0.45 + 0.55 * share)));
}

/* The weights of a column's stacked states: busy ones count whole, idle
 * and unknown ones IDLE_WEIGHT; returns their sum. */
static inline double
stack_weights (const guint64 *s,
               double        *w)
{
  w[STACK_RUNNING] = (double) s[STACK_RUNNING];
  w[STACK_NATIVE] = (double) s[STACK_NATIVE];
  w[STACK_WAITING] = (double) s[STACK_WAITING];
  w[STACK_UNKNOWN] = IDLE_WEIGHT * (double) s[STACK_UNKNOWN];
  w[STACK_IDLE] = IDLE_WEIGHT * (double) s[STACK_IDLE];
  return w[STACK_RUNNING] + w[STACK_NATIVE] + w[STACK_WAITING] + w[STACK_UNKNOWN]
         + w[STACK_IDLE];
}

/* Stacks the first N_STATES weights W from BOTTOM up, BAR pixels high in
 * all, in proportion to TOTAL. */
static void
paint_stack (const Raster *r,
             int           x,
             int           bottom,
             int           bar,
             const double *w,
             guint         n_states,
             double        total)
{
  double sum = 0, scale = total > 0 ? bar / total : 0;
  int y = bottom;

  for (guint k = 0; k < n_states && total > 0; k++)
    {
      int next;

      sum += w[k];
      next = bottom - round_up_half (sum * scale);
      if (next < y)
        fill_column (r, x, next, y, r->stack[k]);
      y = next;
    }
}

static void
paint_lane (const Raster            *r,
            const TvTimelineColumn **shown,
            guint                    n,
            double                   expected,
            int                      top,
            int                      bottom)
{
  int height = bottom - top;

  if (height <= 0)
    return;
  for (guint x = 0; x < n; x++)
    {
      const TvTimelineColumn *c = shown[x];
      guint64 s[N_STACK];
      double w[N_STACK], total;
      int bar;

      if (c == NULL)
        {
          fill_column (r, x, top, bottom, r->track);
          continue;
        }
      column_stack (c, s);
      total = stack_weights (s, w);
      bar = MAX (1, round_up_half (column_density (c, expected) * height * total / c->samples));
      fill_column (r, x, top, bottom - bar, r->track);
      paint_stack (r, x, bottom, bar, w, N_STACK, total);
      paint_exception (r, x, top, bottom, c);
    }
}

/* A thin lane: the colour of the state most of the column's samples are
 * in, faded by density. */
static void
paint_collapsed (const Raster            *r,
                 const TvTimelineColumn **shown,
                 guint                    n,
                 double                   expected,
                 int                      top,
                 int                      bottom)
{
  for (guint x = 0; x < n; x++)
    {
      const TvTimelineColumn *c = shown[x];
      guint64 s[N_STACK];
      guint best = 0;
      double density;

      if (c == NULL)
        {
          fill_column (r, x, top, bottom, r->track);
          continue;
        }
      column_stack (c, s);
      for (guint k = 1; k < N_STACK; k++)
        if (s[k] > s[best])
          best = k;
      density = column_density (c, expected);
      /* Idle is paler, as it is lower in a full lane. */
      if (best == STACK_IDLE || best == STACK_UNKNOWN)
        density *= 0.5;
      fill_column (r, x, top, bottom,
                   density >= 1 ? r->stack[best]
                   : pack_color (tv_color_mix (r->track_color, r->stack_colors[best],
                                      0.3 + 0.7 * density)));
    }
}

/* The share of a column's samples that are not idle (unknown counts as
 * not idle: it may be anything). */
static inline double
busy_share (const TvTimelineColumn *c)
{
  guint64 idle = c->counts[TV_TIMELINE_COUNT_IDLE];
  guint64 unknown = MIN (c->counts[TV_TIMELINE_COUNT_UNKNOWN], idle);

  return (double) (c->samples - idle + unknown) / c->samples;
}

/* The share of busy threads that fills the overview's height: that of the
 * busiest columns of the window, leaving out the busiest 3 %, which would
 * flatten the rest (they are cut at the top); at least MIN_SHARE.  A
 * histogram of the shares finds it in one pass. */
static double
overview_scale (const TvTimelineColumn **shown,
                guint                    n,
                double                   min_share)
{
  guint histogram[101] = { 0 };
  guint n_shown = 0, above = 0;

  for (guint x = 0; x < n; x++)
    if (shown[x] != NULL)
      {
        histogram[round_up_half (busy_share (shown[x]) * 100)]++;
        n_shown++;
      }
  for (guint b = 100; b > 0; b--)
    {
      above += histogram[b];
      if (above > n_shown * 0.03)
        return MAX (b / 100.0, min_share);
    }
  return min_share;
}

/* The overview: the share of threads that were not idle, by state, scaled
 * by overview_scale (). */
static void
paint_overview (const Raster            *r,
                const TvTimelineColumn **shown,
                guint                    n,
                double                   min_share,
                int                      top,
                int                      bottom)
{
  int height = bottom - top;
  double busiest = overview_scale (shown, n, min_share);

  if (height <= 0)
    return;
  for (guint x = 0; x < n; x++)
    {
      const TvTimelineColumn *c = shown[x];
      guint64 s[N_STACK];
      double w[N_STACK], share;

      fill_column (r, x, top, bottom, r->track);
      if (c == NULL || busiest <= 0)
        continue;
      column_stack (c, s);
      for (guint k = 0; k < N_STACK; k++)
        w[k] = (double) s[k];
      share = busy_share (c);
      if (share > 0)
        paint_stack (r, x, bottom,
                     CLAMP (round_up_half (share / busiest * height), 1, height), w,
                     STACK_IDLE, w[STACK_RUNNING] + w[STACK_NATIVE] + w[STACK_WAITING]
                                 + w[STACK_UNKNOWN]);
    }
}

/* Lanes with samples, counted once per timeline. */
static guint
n_busy_lanes (TvTimelineRenderer *self,
              TvTimeline         *timeline)
{
  if (self->busy_lanes == G_MAXUINT)
    {
      guint n = 0;

      for (guint i = 0; i < tv_timeline_get_n_lanes (timeline); i++)
        n += tv_timeline_get_lane (timeline, i)->n_samples > 0;
      self->busy_lanes = n;
    }
  return self->busy_lanes;
}

static void
ensure_columns (TvTimelineRenderer *self,
                guint               n)
{
  if (n <= self->columns_capacity)
    return;
  self->columns_capacity = MAX (n, self->columns_capacity * 2);
  self->columns = g_renew (TvTimelineColumn, self->columns, self->columns_capacity);
  self->shown = g_renew (const TvTimelineColumn *, self->shown, self->columns_capacity);
}

/* Device pixels per user-space pixel across and down; 1 under a rotation
 * or a shear, where the image is painted as it is. */
static void
device_scale (cairo_t *cr,
              double  *sx,
              double  *sy)
{
  cairo_matrix_t m;
  double dx = 1, dy = 1;

  cairo_get_matrix (cr, &m);
  cairo_surface_get_device_scale (cairo_get_target (cr), &dx, &dy);
  if (m.xy != 0 || m.yx != 0 || !(m.xx > 0) || !(m.yy > 0))
    {
      *sx = *sy = 1;
      return;
    }
  *sx = CLAMP (m.xx * dx, 0.25, 8.0);
  *sy = CLAMP (m.yy * dy, 0.25, 8.0);
}

/* Marks rows TOP to BOTTOM of the raster as painted. */
static void
cover_rows (TvTimelineRenderer *self,
            const Raster       *r,
            int                 top,
            int                 bottom)
{
  for (int y = MAX (top, r->clip_top); y < MIN (bottom, r->clip_bottom); y++)
    self->covered[y] = 1;
}

/* The bands of the overview and the lanes, as one image over the time
 * axis from the overview's top to the lanes' bottom.  With a background,
 * the image is opaque (the gaps between bands get the background) and is
 * copied, not blended.  FALSE when nothing was painted. */
static gboolean
paint_bands (TvTimelineRenderer    *self,
             cairo_t               *cr,
             TvTimeline            *timeline,
             const TvTimelineStyle *style,
             const Geometry        *g)
{
  double top = g->overview_y, bottom = g->lanes_y + g->lanes_height;
  double sx, sy, column_us, expected, hold, held_columns = 0;
  TvTimelineColumn held;
  gboolean has_held;
  int width, height, stride, overview_bottom;
  guint32 clear = style->draw_background ? pack_color (tv_timeline_background_color (style->dark))
                                         : 0;
  guchar *data;
  Raster r;

  device_scale (cr, &sx, &sy);
  /* An image of at most 2^26 pixels, whatever the scale. */
  while ((g->plot_width * sx) * ((bottom - top) * sy) > (double) (1 << 26) && sx > 0.25)
    {
      sx /= 2;
      sy /= 2;
    }
  width = (int) ceil (g->plot_width * sx - 1e-6);
  height = (int) ceil ((bottom - top) * sy - 1e-6);
  if (width <= 0 || height <= 0)
    return FALSE;

  if (tv_draw_ensure_image (&self->raster, MAX (width, 64), MAX (height, 64)) == NULL)
    return FALSE;
  cairo_surface_flush (self->raster);
  data = cairo_image_surface_get_data (self->raster);
  stride = cairo_image_surface_get_stride (self->raster);
  if (data == NULL)
    return FALSE;
  if ((guint) height > self->covered_capacity)
    {
      self->covered_capacity = MAX ((guint) height, self->covered_capacity * 2);
      self->covered = g_renew (guint8, self->covered, self->covered_capacity);
    }
  memset (self->covered, 0, height);

  memset (&r, 0, sizeof r);
  r.pixels = (guint32 *) data;
  r.stride = stride / 4;
  r.width = width;
  r.scale_y = sy;
  r.track_color = tv_palette_track (style->dark);
  r.track = pack_color (r.track_color);
  r.exception_color = tv_timeline_state_color (TV_TIMELINE_STATE_EXCEPTION, style->dark);
  for (guint k = 0; k < N_STACK; k++)
    {
      r.stack_colors[k] = tv_timeline_state_color (stack_states[k], style->dark);
      r.stack[k] = pack_color (r.stack_colors[k]);
    }

  ensure_columns (self, width);
  column_us = (style->t1 - style->t0) / width;
  expected = column_us / tv_timeline_get_interval (timeline);
  hold = HOLD_INTERVALS * tv_timeline_get_interval (timeline) / column_us;

  /* The overview. */
  r.clip_top = 0;
  r.clip_bottom = MIN ((int) round ((g->overview_y + g->overview_height - top) * sy), height);
  overview_bottom = (int) round ((g->overview_y + g->overview_height - 1 - top) * sy);
  tv_timeline_get_bins (timeline, TV_TIMELINE_ALL, style->t0, style->t1, width, self->columns);
  has_held = held_before (timeline, TV_TIMELINE_ALL, style, column_us, &held, &held_columns);
  hold_columns (self->columns, self->shown, width, hold, has_held ? &held : NULL, held_columns);
  paint_overview (&r, self->shown, width, 1.0 / MAX (n_busy_lanes (self, timeline), 1), 0,
                  overview_bottom);
  cover_rows (self, &r, 0, overview_bottom);

  /* The lanes that show. */
  r.clip_top = (int) round ((g->lanes_y - top) * sy);
  r.clip_bottom = height;
  for (guint i = first_row_below (self, g->lanes_y - g->rows_y);
       i < self->n_rows && self->rows[i].y + g->rows_y < g->lanes_y + g->lanes_height; i++)
    {
      const Row *row = &self->rows[i];
      double row_y = row->y + g->rows_y;
      int band_top, band_bottom;

      if (row->kind != ROW_LANE)
        continue;
      band_top = (int) round ((row_y - top) * sy);
      band_bottom = (int) round ((row_y + row->height - 1 - top) * sy);
      if (band_bottom <= band_top)
        band_bottom = band_top + 1;
      tv_timeline_get_bins (timeline, row->lane, style->t0, style->t1, width, self->columns);
      has_held = held_before (timeline, row->lane, style, column_us, &held, &held_columns);
      hold_columns (self->columns, self->shown, width, hold, has_held ? &held : NULL,
                    held_columns);
      if (row->flags & TV_TIMELINE_LANE_COLLAPSED)
        paint_collapsed (&r, self->shown, width, expected, band_top, band_bottom);
      else
        paint_lane (&r, self->shown, width, expected, band_top, band_bottom);
      cover_rows (self, &r, band_top, band_bottom);
    }
  /* The rest: gaps between bands, below the last lane. */
  for (int y = 0; y < height; y++)
    if (!self->covered[y])
      {
        guint32 *row = r.pixels + (gsize) y * r.stride;

        for (int x = 0; x < width; x++)
          row[x] = clear;
      }
  cairo_surface_mark_dirty_rectangle (self->raster, 0, 0, width, height);

  cairo_save (cr);
  cairo_rectangle (cr, g->plot_x, top, g->plot_width, bottom - top);
  cairo_clip (cr);
  cairo_translate (cr, g->plot_x, top);
  cairo_scale (cr, 1 / sx, 1 / sy);
  cairo_set_source_surface (cr, self->raster, 0, 0);
  cairo_pattern_set_filter (cairo_get_source (cr), CAIRO_FILTER_NEAREST);
  if (style->draw_background)
    cairo_set_operator (cr, CAIRO_OPERATOR_SOURCE);
  cairo_rectangle (cr, 0, 0, width, height);
  cairo_fill (cr);
  cairo_restore (cr);
  return TRUE;
}

/* ------------------------------------------------------------------------ */
/* Drawing                                                                   */
/* ------------------------------------------------------------------------ */

static void
draw_axis (TvTimelineRenderer    *self,
           cairo_t               *cr,
           const TvTimelineStyle *style,
           const Geometry        *g)
{
  g_autoptr(GArray) times = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GPtrArray) labels = g_ptr_array_new_with_free_func (g_free);
  TvTimelineColor fg = tv_palette_foreground (style->dark);
  double step, bottom = g->lanes_y + g->lanes_height;
  guint n = compute_ticks (self, style, g, &step, times, labels);

  cairo_save (cr);
  cairo_set_antialias (cr, CAIRO_ANTIALIAS_NONE);
  cairo_set_line_width (cr, 1.0);

  /* The grid, faint, over the bands. */
  tv_draw_set_source (cr, fg, style->dark ? 0.10 : 0.08);
  for (guint i = 0; i < n; i++)
    {
      double x = floor (time_to_x (style, g, g_array_index (times, double, i))) + 0.5;

      cairo_move_to (cr, x, g->overview_y);
      cairo_line_to (cr, x, bottom);
    }
  cairo_stroke (cr);

  /* The axis line and its ticks. */
  tv_draw_set_source (cr, fg, 0.35);
  cairo_move_to (cr, g->plot_x, g->axis_height - 0.5);
  cairo_line_to (cr, style->width, g->axis_height - 0.5);
  for (guint i = 0; i < n; i++)
    {
      double x = floor (time_to_x (style, g, g_array_index (times, double, i))) + 0.5;

      cairo_move_to (cr, x, g->axis_height - 6);
      cairo_line_to (cr, x, g->axis_height);
    }
  cairo_stroke (cr);
  cairo_restore (cr);

  tv_draw_set_source (cr, fg, 0.75);
  for (guint i = 0; i < n; i++)
    {
      PangoLayout *layout = tv_draw_text_lookup (&self->text, g_ptr_array_index (labels, i), FALSE);
      double x = floor (time_to_x (style, g, g_array_index (times, double, i))) + 3;

      if (x + tv_draw_layout_width (layout) > style->width)
        continue;
      tv_draw_show_layout (cr, layout, x, round ((g->axis_height - 6 - g->text_height) / 2) + 1);
    }
}

static void
draw_labels (TvTimelineRenderer    *self,
             cairo_t               *cr,
             TvTimeline            *timeline,
             const TvTimelineStyle *style,
             const Geometry        *g)
{
  TvTimelineColor fg = tv_palette_foreground (style->dark);
  TvTimelineColor accent = tv_palette_accent (style->dark);
  double available = g->plot_x - 2 * LABEL_PADDING;

  /* The overview's label. */
  if (style->overview_label != NULL && available > 0)
    {
      PangoLayout *layout = tv_draw_text_lookup (&self->text, style->overview_label, FALSE);

      cairo_save (cr);
      cairo_rectangle (cr, 0, g->overview_y, g->plot_x, g->overview_height);
      cairo_clip (cr);
      tv_draw_set_source (cr, fg, 0.7);
      tv_draw_show_layout (cr, layout, LABEL_PADDING,
                   g->overview_y + round ((g->overview_height - g->text_height) / 2));
      cairo_restore (cr);
    }

  /* Separators: below the overview, above the legend. */
  cairo_save (cr);
  cairo_set_antialias (cr, CAIRO_ANTIALIAS_NONE);
  cairo_set_line_width (cr, 1.0);
  tv_draw_set_source (cr, fg, 0.14);
  cairo_move_to (cr, 0, g->lanes_y - OVERVIEW_GAP / 2 - 0.5);
  cairo_line_to (cr, style->width, g->lanes_y - OVERVIEW_GAP / 2 - 0.5);
  cairo_move_to (cr, 0, g->legend_y + 0.5);
  cairo_line_to (cr, style->width, g->legend_y + 0.5);
  cairo_stroke (cr);
  cairo_restore (cr);

  cairo_save (cr);
  cairo_rectangle (cr, 0, g->lanes_y, style->width, g->lanes_height);
  cairo_clip (cr);
  for (guint i = first_row_below (self, g->lanes_y - g->rows_y);
       i < self->n_rows && self->rows[i].y + g->rows_y < g->lanes_y + g->lanes_height; i++)
    {
      const Row *row = &self->rows[i];
      double band = row->height - 1;
      double row_y = row->y + g->rows_y;

      if (row->kind == ROW_GROUP)
        {
          g_autofree char *text = format_interpreter (style->interpreter_format,
                                                      row->interpreter);
          PangoLayout *layout = tv_draw_text_lookup (&self->text, text, TRUE);

          tv_draw_set_source (cr, fg, 0.06);
          cairo_rectangle (cr, 0, row_y, style->width, band);
          cairo_fill (cr);
          tv_draw_set_source (cr, fg, 0.8);
          tv_draw_show_layout (cr, layout, LABEL_PADDING, row_y + round ((band - g->text_height) / 2));
          continue;
        }
      if (row->flags & TV_TIMELINE_LANE_SELECTED)
        {
          tv_draw_set_source (cr, accent, 0.18);
          cairo_rectangle (cr, 0, row_y, g->plot_x, band);
          cairo_fill (cr);
          tv_draw_set_source (cr, accent, 1.0);
          cairo_rectangle (cr, 0, row_y, 3, band);
          cairo_fill (cr);
        }
      if (band >= g->text_height - 2 && available > 0)
        {
          PangoLayout *layout = lane_label (self, timeline, row->lane);

          pango_layout_set_width (layout, (int) (available * PANGO_SCALE));
          tv_draw_set_source (cr, fg, 0.8);
          tv_draw_show_layout (cr, layout, LABEL_PADDING, row_y + round ((band - g->text_height) / 2));
        }
    }
  cairo_restore (cr);
}

/* The pixel columns of STYLE's ranges in the window, into self->spans:
 * sorted, merged where they meet, and a pixel wide at least, so that a
 * cell far narrower than a pixel still shows. */
static void
range_spans (TvTimelineRenderer    *self,
             TvTimeline            *timeline,
             const TvTimelineStyle *style,
             const Geometry        *g)
{
  double origin = (double) tv_timeline_get_origin (timeline);
  double right = g->plot_x + g->plot_width;
  guint lo = 0, hi = style->n_ranges;

  g_array_set_size (self->spans, 0);
  /* The first range that ends after the window starts, by bisection. */
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if ((double) style->ranges[mid].end - origin <= style->t0)
        lo = mid + 1;
      else
        hi = mid;
    }
  for (guint i = lo; i < style->n_ranges && (double) style->ranges[i].start - origin < style->t1;
       i++)
    {
      double a = time_to_x (style, g, (double) style->ranges[i].start - origin);
      double b = time_to_x (style, g, (double) style->ranges[i].end - origin);
      Span span = { round (CLAMP (a, g->plot_x, right)), round (CLAMP (b, g->plot_x, right)) };
      Span *last = self->spans->len > 0 ? &g_array_index (self->spans, Span,
                                                          self->spans->len - 1) : NULL;

      if (span.right - span.left < 1)
        {
          span.left = MIN (span.left, right - 1);
          span.right = span.left + 1;
        }
      if (last != NULL && span.left <= last->right)
        last->right = MAX (last->right, span.right);
      else
        g_array_append_val (self->spans, span);
    }
}

/* The ranges tinted over the axis, the overview and the lanes, marked
 * along the axis, and the time between them dimmed as the heatmap dims
 * the cells outside its selection. */
static void
draw_ranges (TvTimelineRenderer    *self,
             cairo_t               *cr,
             TvTimeline            *timeline,
             const TvTimelineStyle *style,
             const Geometry        *g)
{
  double bottom = g->lanes_y + g->lanes_height;
  double done = g->plot_x;

  if (style->ranges == NULL || style->n_ranges == 0)
    return;
  range_spans (self, timeline, style, g);
  for (guint i = 0; i < self->spans->len; i++)
    {
      const Span *span = &g_array_index (self->spans, Span, i);

      if (span->left > done)
        cairo_rectangle (cr, done, g->overview_y, span->left - done, bottom - g->overview_y);
      done = span->right;
    }
  if (done < g->plot_x + g->plot_width)
    cairo_rectangle (cr, done, g->overview_y, g->plot_x + g->plot_width - done,
                     bottom - g->overview_y);
  tv_draw_set_source (cr, tv_timeline_background_color (style->dark), TV_PALETTE_VEIL_ALPHA);
  cairo_fill (cr);

  for (guint i = 0; i < self->spans->len; i++)
    {
      const Span *span = &g_array_index (self->spans, Span, i);

      cairo_rectangle (cr, span->left, 0, span->right - span->left, bottom);
    }
  tv_draw_set_source (cr, tv_palette_accent (style->dark), tv_palette_selection_alpha (style->dark));
  cairo_fill (cr);
  for (guint i = 0; i < self->spans->len; i++)
    {
      const Span *span = &g_array_index (self->spans, Span, i);

      cairo_rectangle (cr, span->left, g->overview_y - 3, span->right - span->left, 3);
    }
  tv_draw_set_source (cr, tv_palette_accent (style->dark), 0.9);
  cairo_fill (cr);
}

static void
draw_selection (TvTimelineRenderer    *self,
                cairo_t               *cr,
                TvTimeline            *timeline,
                const TvTimelineStyle *style,
                const Geometry        *g)
{
  TvTimelineColor accent = tv_palette_accent (style->dark);
  double bottom = g->lanes_y + g->lanes_height;

  cairo_save (cr);
  cairo_rectangle (cr, g->plot_x, 0, g->plot_width, bottom);
  cairo_clip (cr);
  cairo_set_antialias (cr, CAIRO_ANTIALIAS_NONE);
  draw_ranges (self, cr, timeline, style, g);
  if (style->has_selection && isfinite (style->selection_start)
      && isfinite (style->selection_end))
    {
      double a = time_to_x (style, g, MIN (style->selection_start, style->selection_end));
      double b = time_to_x (style, g, MAX (style->selection_start, style->selection_end));
      double l = round (CLAMP (a, g->plot_x - 2, style->width + 2));
      double r = round (CLAMP (b, g->plot_x - 2, style->width + 2));

      if (r - l < 1)
        r = l + 1;
      tv_draw_set_source (cr, accent, tv_palette_selection_alpha (style->dark));
      cairo_rectangle (cr, l, 0, r - l, bottom);
      cairo_fill (cr);
      tv_draw_set_source (cr, accent, 0.9);
      cairo_rectangle (cr, l, 0, 1, bottom);
      cairo_rectangle (cr, r - 1, 0, 1, bottom);
      cairo_fill (cr);
    }
  if (isfinite (style->cursor_time))
    {
      double x = floor (time_to_x (style, g, style->cursor_time));

      tv_draw_set_source (cr, tv_palette_foreground (style->dark), 0.55);
      cairo_rectangle (cr, x, 0, 1, bottom);
      cairo_fill (cr);
    }
  cairo_restore (cr);
}

static void
legend_rect (const Geometry  *g,
             TvTimelineState  state,
             double          *x,
             double          *y,
             double          *width,
             double          *height)
{
  *x = g->legend_x[state] - 3;
  *y = g->legend_y + 3;
  *width = g->legend_width[state] + 6;
  *height = MAX (g->legend_height - 6, 1);
}

static void
draw_legend (TvTimelineRenderer    *self,
             cairo_t               *cr,
             const TvTimelineStyle *style,
             const Geometry        *g)
{
  TvTimelineColor fg = tv_palette_foreground (style->dark);
  double middle = g->legend_y + g->legend_height / 2;

  for (guint s = 0; s < TV_TIMELINE_N_STATES; s++)
    {
      double x = g->legend_x[s], top = round (middle - SWATCH_SIZE / 2);
      const char *text = style->state_labels[s];

      if (style->selected_state == (int) s)
        {
          double rx, ry, rw, rh;

          legend_rect (g, s, &rx, &ry, &rw, &rh);
          tv_draw_set_source (cr, tv_palette_accent (style->dark), 0.2);
          cairo_rectangle (cr, rx, ry, rw, rh);
          cairo_fill (cr);
          tv_draw_set_source (cr, tv_palette_accent (style->dark), 1.0);
          cairo_set_line_width (cr, 1.0);
          cairo_rectangle (cr, rx + 0.5, ry + 0.5, rw - 1, rh - 1);
          cairo_stroke (cr);
        }
      tv_draw_set_source (cr, tv_timeline_state_color (s, style->dark), 1.0);
      cairo_rectangle (cr, x, top, SWATCH_SIZE, SWATCH_SIZE);
      cairo_fill (cr);
      tv_draw_set_source (cr, fg, 0.3);
      cairo_set_line_width (cr, 1.0);
      cairo_rectangle (cr, x + 0.5, top + 0.5, SWATCH_SIZE - 1, SWATCH_SIZE - 1);
      cairo_stroke (cr);
      if (text != NULL && text[0] != '\0')
        {
          tv_draw_set_source (cr, fg, 0.8);
          tv_draw_show_layout (cr, tv_draw_text_lookup (&self->text, text, FALSE), x + SWATCH_SIZE + 5,
                       round (middle - g->text_height / 2));
        }
    }
}

void
tv_timeline_renderer_draw (TvTimelineRenderer    *self,
                           cairo_t               *cr,
                           TvTimeline            *timeline,
                           const TvTimelineStyle *style)
{
  Geometry g;

  g_return_if_fail (self != NULL);
  g_return_if_fail (cr != NULL);
  g_return_if_fail (timeline != NULL);
  g_return_if_fail (style != NULL);

  if (!style_valid (style))
    return;
  compute_geometry (self, timeline, style, &g);

  cairo_save (cr);
  cairo_rectangle (cr, 0, 0, style->width, style->height);
  cairo_clip (cr);
  /* The background around the bands, whose image covers its own. */
  if (style->draw_background)
    {
      tv_draw_set_source (cr, tv_timeline_background_color (style->dark), 1.0);
      cairo_save (cr);
      cairo_set_fill_rule (cr, CAIRO_FILL_RULE_EVEN_ODD);
      cairo_rectangle (cr, 0, 0, style->width, style->height);
      cairo_rectangle (cr, g.plot_x, g.overview_y, g.plot_width,
                       g.lanes_y + g.lanes_height - g.overview_y);
      cairo_fill (cr);
      cairo_restore (cr);
    }
  if (!paint_bands (self, cr, timeline, style, &g) && style->draw_background)
    {
      cairo_rectangle (cr, g.plot_x, g.overview_y, g.plot_width,
                       g.lanes_y + g.lanes_height - g.overview_y);
      cairo_fill (cr);
    }
  draw_axis (self, cr, style, &g);
  draw_labels (self, cr, timeline, style, &g);
  draw_selection (self, cr, timeline, style, &g);
  draw_legend (self, cr, style, &g);
  cairo_restore (cr);
}

/* ------------------------------------------------------------------------ */
/* Geometry and hit testing                                                  */
/* ------------------------------------------------------------------------ */

gboolean
tv_timeline_renderer_hit_test (TvTimelineRenderer    *self,
                               TvTimeline            *timeline,
                               const TvTimelineStyle *style,
                               double                 x,
                               double                 y,
                               TvTimelineHit         *hit)
{
  Geometry g;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (timeline != NULL, FALSE);
  g_return_val_if_fail (style != NULL, FALSE);
  g_return_val_if_fail (hit != NULL, FALSE);

  memset (hit, 0, sizeof *hit);
  hit->kind = TV_TIMELINE_HIT_NONE;
  hit->time = NAN;
  if (!style_valid (style) || !(x >= 0 && x < style->width && y >= 0 && y < style->height))
    return FALSE;
  compute_geometry (self, timeline, style, &g);

  hit->in_labels = x < g.plot_x;
  if (!hit->in_labels)
    hit->time = x_to_time (style, &g, x);

  if (y < g.axis_height)
    hit->kind = TV_TIMELINE_HIT_AXIS;
  else if (y >= g.overview_y && y < g.overview_y + g.overview_height)
    hit->kind = TV_TIMELINE_HIT_OVERVIEW;
  else if (y >= g.lanes_y && y < g.lanes_y + g.lanes_height)
    {
      const Row *row = find_row (self, y - g.rows_y);

      if (row != NULL)
        {
          hit->kind = row->kind == ROW_GROUP ? TV_TIMELINE_HIT_GROUP : TV_TIMELINE_HIT_LANE;
          hit->lane = row->lane;
          hit->interpreter = row->interpreter;
        }
    }
  else if (y >= g.legend_y)
    {
      hit->time = NAN;
      hit->in_labels = FALSE;
      for (guint s = 0; s < TV_TIMELINE_N_STATES; s++)
        {
          double rx, ry, rw, rh;

          legend_rect (&g, s, &rx, &ry, &rw, &rh);
          if (x >= rx && x < rx + rw && y >= ry && y < ry + rh)
            {
              hit->kind = TV_TIMELINE_HIT_LEGEND;
              hit->state = s;
            }
        }
    }
  return hit->kind != TV_TIMELINE_HIT_NONE;
}

void
tv_timeline_renderer_get_plot_area (TvTimelineRenderer    *self,
                                    TvTimeline            *timeline,
                                    const TvTimelineStyle *style,
                                    double                *x,
                                    double                *width)
{
  Geometry g;

  g_return_if_fail (self != NULL && timeline != NULL && style != NULL);

  compute_geometry (self, timeline, style, &g);
  if (x != NULL)
    *x = g.plot_x;
  if (width != NULL)
    *width = g.plot_width;
}

double
tv_timeline_renderer_time_to_x (TvTimelineRenderer    *self,
                                TvTimeline            *timeline,
                                const TvTimelineStyle *style,
                                double                 time)
{
  Geometry g;

  g_return_val_if_fail (self != NULL && timeline != NULL && style != NULL, 0);

  compute_geometry (self, timeline, style, &g);
  return time_to_x (style, &g, time);
}

double
tv_timeline_renderer_x_to_time (TvTimelineRenderer    *self,
                                TvTimeline            *timeline,
                                const TvTimelineStyle *style,
                                double                 x)
{
  Geometry g;

  g_return_val_if_fail (self != NULL && timeline != NULL && style != NULL, 0);

  compute_geometry (self, timeline, style, &g);
  return x_to_time (style, &g, x);
}

void
tv_timeline_renderer_get_lanes_area (TvTimelineRenderer    *self,
                                     TvTimeline            *timeline,
                                     const TvTimelineStyle *style,
                                     double                *y,
                                     double                *height,
                                     double                *content_height)
{
  Geometry g;

  g_return_if_fail (self != NULL && timeline != NULL && style != NULL);

  compute_geometry (self, timeline, style, &g);
  if (y != NULL)
    *y = g.lanes_y;
  if (height != NULL)
    *height = g.lanes_height;
  if (content_height != NULL)
    *content_height = g.content_height;
}

gboolean
tv_timeline_renderer_get_lane_rect (TvTimelineRenderer    *self,
                                    TvTimeline            *timeline,
                                    const TvTimelineStyle *style,
                                    guint                  lane,
                                    double                *x,
                                    double                *y,
                                    double                *width,
                                    double                *height)
{
  Geometry g;

  g_return_val_if_fail (self != NULL && timeline != NULL && style != NULL, FALSE);
  g_return_val_if_fail (lane < tv_timeline_get_n_lanes (timeline), FALSE);

  compute_geometry (self, timeline, style, &g);
  for (guint i = 0; i < self->n_rows; i++)
    if (self->rows[i].kind == ROW_LANE && self->rows[i].lane == lane)
      {
        if (x != NULL)
          *x = g.plot_x;
        if (y != NULL)
          *y = self->rows[i].y + g.rows_y;
        if (width != NULL)
          *width = g.plot_width;
        if (height != NULL)
          *height = self->rows[i].height - 1;
        return TRUE;
      }
  return FALSE;
}

void
tv_timeline_renderer_get_overview_rect (TvTimelineRenderer    *self,
                                        TvTimeline            *timeline,
                                        const TvTimelineStyle *style,
                                        double                *x,
                                        double                *y,
                                        double                *width,
                                        double                *height)
{
  Geometry g;

  g_return_if_fail (self != NULL && timeline != NULL && style != NULL);

  compute_geometry (self, timeline, style, &g);
  if (x != NULL)
    *x = g.plot_x;
  if (y != NULL)
    *y = g.overview_y;
  if (width != NULL)
    *width = g.plot_width;
  if (height != NULL)
    *height = g.overview_height - 1;
}

void
tv_timeline_renderer_get_legend_rect (TvTimelineRenderer    *self,
                                      TvTimeline            *timeline,
                                      const TvTimelineStyle *style,
                                      TvTimelineState        state,
                                      double                *x,
                                      double                *y,
                                      double                *width,
                                      double                *height)
{
  Geometry g;
  double rx, ry, rw, rh;

  g_return_if_fail (self != NULL && timeline != NULL && style != NULL);
  g_return_if_fail (state < TV_TIMELINE_N_STATES);

  compute_geometry (self, timeline, style, &g);
  legend_rect (&g, state, &rx, &ry, &rw, &rh);
  if (x != NULL)
    *x = rx;
  if (y != NULL)
    *y = ry;
  if (width != NULL)
    *width = rw;
  if (height != NULL)
    *height = rh;
}

/* ------------------------------------------------------------------------ */
/* Life                                                                      */
/* ------------------------------------------------------------------------ */

/* ------------------------------------------------------------------------ */
/* Heatmap                                                                   */
/* ------------------------------------------------------------------------ */

#define HEATMAP_PADDING    6.0
#define HEATMAP_BAR_WIDTH  10.0
#define USEC_PER_SECOND    1000000.0

typedef struct
{
  double text_height;
  double plot_x;
  double plot_y;
  double plot_width;
  double plot_height;
  double column_width;
  double row_height;
  double legend_x;
} HeatmapGeometry;

void
tv_heatmap_style_init (TvHeatmapStyle *style,
                       double          width,
                       double          height)
{
  g_return_if_fail (style != NULL);

  memset (style, 0, sizeof *style);
  style->width = width;
  style->height = height;
}

TvTimelineColor
tv_timeline_heatmap_color (guint64  count,
                           guint64  max,
                           gboolean dark)
{
  if (count == 0 || max == 0)
    return tv_palette_track (dark);
  return tv_palette_heatmap (MIN ((double) count / (double) max, 1.0), dark);
}

static gboolean
heatmap_style_valid (const TvHeatmapStyle *style)
{
  return style->width >= 1 && style->height >= 1 && isfinite (style->width)
         && isfinite (style->height);
}

static char *
heatmap_count_label (guint64 count)
{
  g_autofree char *number = g_strdup_printf ("%" G_GUINT64_FORMAT, count);
  GString *out = g_string_new (NULL);

  append_grouped (out, number);
  return g_string_free (out, FALSE);
}

/* An offset within the second, in ms (or µs below a millisecond). */
static char *
offset_label (guint64 offset,
              guint64 step)
{
  if (step >= 1000)
    return g_strdup_printf ("%" G_GUINT64_FORMAT " ms", offset / 1000);
  return g_strdup_printf ("%" G_GUINT64_FORMAT " \xc2\xb5s", offset);
}

static void
heatmap_geometry (TvTimelineRenderer   *self,
                  TvTimelineHeatmap    *heatmap,
                  const TvHeatmapStyle *style,
                  HeatmapGeometry      *g)
{
  guint n_columns = tv_timeline_heatmap_get_n_columns (heatmap);
  guint n_rows = tv_timeline_heatmap_get_n_rows (heatmap);
  g_autofree char *longest = offset_label (999999, tv_timeline_heatmap_get_row_duration (heatmap));
  g_autofree char *max = heatmap_count_label (tv_timeline_heatmap_get_max_count (heatmap));
  double label_width, legend_width;

  ensure_font (self, style->font);
  g->text_height = ceil (self->text.ascent + self->text.descent);
  label_width = ceil (tv_draw_layout_width (tv_draw_text_lookup (&self->text, longest, FALSE)));
  legend_width = HEATMAP_BAR_WIDTH + 4 + ceil (tv_draw_layout_width (tv_draw_text_lookup (&self->text, max, FALSE)));
  if (style->legend_label != NULL)
    legend_width = MAX (legend_width,
                        ceil (tv_draw_layout_width (tv_draw_text_lookup (&self->text, style->legend_label, FALSE))));

  g->plot_x = label_width + 2 * HEATMAP_PADDING;
  g->plot_y = ceil (g->text_height / 2) + 2;
  g->plot_width = MAX (style->width - g->plot_x - legend_width - 3 * HEATMAP_PADDING, 1);
  g->plot_height = MAX (style->height - g->plot_y - g->text_height - 6, 1);
  g->legend_x = g->plot_x + g->plot_width + 2 * HEATMAP_PADDING;
  g->column_width = g->plot_width / MAX (n_columns, 1);
  g->row_height = g->plot_height / MAX (n_rows, 1);
}

/* The y of an offset within a second: rows are drawn alike, the last one
 * too, however much shorter it is. */
static double
offset_to_y (TvTimelineHeatmap     *heatmap,
             const HeatmapGeometry *g,
             guint64                offset)
{
  guint64 duration = tv_timeline_heatmap_get_row_duration (heatmap);
  guint n_rows = tv_timeline_heatmap_get_n_rows (heatmap);
  guint64 row = offset / duration;
  guint64 row_end;

  if (row >= n_rows)
    return g->plot_y + g->plot_height;
  row_end = MIN ((row + 1) * duration, (guint64) USEC_PER_SECOND);
  return g->plot_y + (row + (double) (offset - row * duration) / (row_end - row * duration))
                     * g->row_height;
}

static cairo_surface_t *
ensure_cells (TvTimelineRenderer *self,
              TvTimelineHeatmap  *heatmap,
              gboolean            dark)
{
  guint n_columns = tv_timeline_heatmap_get_n_columns (heatmap);
  guint n_rows = tv_timeline_heatmap_get_n_rows (heatmap);
  guint64 max = tv_timeline_heatmap_get_max_count (heatmap);
  guint8 *pixels;
  int stride;

  if (self->cells != NULL && self->cells_heatmap == heatmap && self->cells_dark == dark)
    return self->cells;
  g_clear_pointer (&self->cells, cairo_surface_destroy);
  g_clear_pointer (&self->cells_heatmap, tv_timeline_heatmap_unref);
  /* Each cell once: the heatmap has at most 2^24. */
  self->cells = cairo_image_surface_create (CAIRO_FORMAT_RGB24, n_columns, n_rows);
  if (cairo_surface_status (self->cells) != CAIRO_STATUS_SUCCESS)
    {
      g_clear_pointer (&self->cells, cairo_surface_destroy);
      return NULL;
    }
  cairo_surface_flush (self->cells);
  pixels = cairo_image_surface_get_data (self->cells);
  stride = cairo_image_surface_get_stride (self->cells);
  for (guint r = 0; r < n_rows; r++)
    {
      guint32 *line = (guint32 *) (gpointer) (pixels + (gsize) r * stride);

      for (guint c = 0; c < n_columns; c++)
        line[c] = pack_color (tv_timeline_heatmap_color (
                                tv_timeline_heatmap_get_count (heatmap, c, r), max, dark));
    }
  cairo_surface_mark_dirty (self->cells);
  self->cells_heatmap = tv_timeline_heatmap_ref (heatmap);
  self->cells_dark = dark;
  return self->cells;
}

static void
paint_cells (TvTimelineRenderer    *self,
             cairo_t               *cr,
             TvTimelineHeatmap     *heatmap,
             const TvHeatmapStyle  *style,
             const HeatmapGeometry *g)
{
  cairo_surface_t *cells = ensure_cells (self, heatmap, style->dark);
  double sx, sy;

  if (cells == NULL)
    return;
  device_scale (cr, &sx, &sy);
  cairo_save (cr);
  cairo_rectangle (cr, g->plot_x, g->plot_y, g->plot_width, g->plot_height);
  cairo_clip (cr);
  cairo_translate (cr, g->plot_x, g->plot_y);
  cairo_scale (cr, g->column_width, g->row_height);
  cairo_set_source_surface (cr, cells, 0, 0);
  /* Sharp cells when they are wider than a pixel; averaged when not. */
  cairo_pattern_set_filter (cairo_get_source (cr),
                            g->column_width * sx >= 1 && g->row_height * sy >= 1
                            ? CAIRO_FILTER_NEAREST : CAIRO_FILTER_GOOD);
  cairo_paint (cr);
  cairo_restore (cr);
}

/* Adds the part of RANGE that the cells show, a rectangle per column. */
static void
add_range_path (cairo_t               *cr,
                TvTimelineHeatmap     *heatmap,
                const HeatmapGeometry *g,
                guint64                origin,
                TvTimeRange            range)
{
  guint n_columns = tv_timeline_heatmap_get_n_columns (heatmap);
  guint64 second = (guint64) USEC_PER_SECOND;
  guint64 start, end;

  if (range.end <= origin || range.start >= range.end)
    return;
  start = MAX (range.start, origin) - origin;
  end = range.end - origin;
  for (guint64 c = start / second; c < n_columns && c * second < end; c++)
    {
      guint64 a = MAX (start, c * second) - c * second;
      guint64 b = MIN (end, (c + 1) * second) - c * second;
      double top = offset_to_y (heatmap, g, a), bottom = offset_to_y (heatmap, g, b);

      cairo_rectangle (cr, g->plot_x + c * g->column_width, top, g->column_width, bottom - top);
    }
}

static void
draw_heatmap_selection (cairo_t               *cr,
                        TvTimelineHeatmap     *heatmap,
                        const TvHeatmapStyle  *style,
                        const HeatmapGeometry *g)
{
  guint64 origin = tv_timeline_get_origin (tv_timeline_heatmap_get_timeline (heatmap));

  if (style->n_selection > 0 && style->selection != NULL)
    {
      /* The plot less the selection (the ranges are disjoint), dimmed. */
      cairo_save (cr);
      cairo_set_fill_rule (cr, CAIRO_FILL_RULE_EVEN_ODD);
      cairo_rectangle (cr, g->plot_x, g->plot_y, g->plot_width, g->plot_height);
      for (guint i = 0; i < style->n_selection; i++)
        add_range_path (cr, heatmap, g, origin, style->selection[i]);
      tv_draw_set_source (cr, tv_timeline_background_color (style->dark), TV_PALETTE_VEIL_ALPHA);
      cairo_fill (cr);
      cairo_restore (cr);
    }
  if (style->has_drag)
    {
      guint n_columns = tv_timeline_heatmap_get_n_columns (heatmap);
      guint n_rows = tv_timeline_heatmap_get_n_rows (heatmap);
      guint c0 = MIN (MIN (style->drag_column0, style->drag_column1), n_columns - 1);
      guint c1 = MIN (MAX (style->drag_column0, style->drag_column1), n_columns - 1);
      guint r0 = MIN (MIN (style->drag_row0, style->drag_row1), n_rows - 1);
      guint r1 = MIN (MAX (style->drag_row0, style->drag_row1), n_rows - 1);
      double x = round (g->plot_x + c0 * g->column_width);
      double y = round (g->plot_y + r0 * g->row_height);
      double w = round (g->plot_x + (c1 + 1) * g->column_width) - x;
      double h = round (g->plot_y + (r1 + 1) * g->row_height) - y;

      tv_draw_set_source (cr, tv_palette_accent (style->dark), 0.2);
      cairo_rectangle (cr, x, y, w, h);
      cairo_fill (cr);
      tv_draw_set_source (cr, tv_palette_accent (style->dark), 1.0);
      cairo_set_line_width (cr, 2.0);
      cairo_rectangle (cr, x + 1, y + 1, MAX (w - 2, 0), MAX (h - 2, 0));
      cairo_stroke (cr);
    }
}

/* The smallest of 1, 2, 5, 10, 20, 50, ... at least MIN. */
static guint
nice_step (double min)
{
  static const guint factors[] = { 1, 2, 5 };

  for (guint power = 1; power <= 100000000; power *= 10)
    for (guint i = 0; i < G_N_ELEMENTS (factors); i++)
      if (factors[i] * power >= min)
        return factors[i] * power;
  return 1000000000;
}

static void
draw_heatmap_axes (TvTimelineRenderer    *self,
                   cairo_t               *cr,
                   TvTimelineHeatmap     *heatmap,
                   const TvHeatmapStyle  *style,
                   const HeatmapGeometry *g)
{
  TvTimelineColor fg = tv_palette_foreground (style->dark);
  guint n_columns = tv_timeline_heatmap_get_n_columns (heatmap);
  guint n_rows = tv_timeline_heatmap_get_n_rows (heatmap);
  guint64 duration = tv_timeline_heatmap_get_row_duration (heatmap);
  g_autofree char *widest = g_strdup_printf ("%u s", n_columns);
  guint column_step = nice_step ((tv_draw_layout_width (tv_draw_text_lookup (&self->text, widest, FALSE)) + 12)
                                 / g->column_width);
  guint row_step = nice_step ((g->text_height + 2) / g->row_height);
  double bottom = g->plot_y + g->plot_height;

  cairo_save (cr);
  cairo_set_line_width (cr, 1.0);
  /* Seconds, below, at the left edge of their column. */
  for (guint c = 0; c < n_columns; c += column_step)
    {
      g_autofree char *text = g_strdup_printf ("%u s", c);
      double x = round (g->plot_x + c * g->column_width);

      tv_draw_set_source (cr, fg, 0.3);
      cairo_move_to (cr, x + 0.5, bottom);
      cairo_line_to (cr, x + 0.5, bottom + 4);
      cairo_stroke (cr);
      tv_draw_set_source (cr, fg, 0.7);
      tv_draw_show_layout (cr, tv_draw_text_lookup (&self->text, text, FALSE), x + 3, bottom + 2);
    }
  /* Offsets within the second, on the left, centred on their row's top. */
  for (guint r = 0; r < n_rows; r += row_step)
    {
      g_autofree char *text = offset_label (r * duration, duration * row_step);
      PangoLayout *layout = tv_draw_text_lookup (&self->text, text, FALSE);
      double y = round (g->plot_y + r * g->row_height);

      tv_draw_set_source (cr, fg, 0.3);
      cairo_move_to (cr, g->plot_x - 4, y + 0.5);
      cairo_line_to (cr, g->plot_x, y + 0.5);
      cairo_stroke (cr);
      tv_draw_set_source (cr, fg, 0.7);
      tv_draw_show_layout (cr, layout, g->plot_x - 6 - tv_draw_layout_width (layout),
                   y - round (g->text_height / 2));
    }
  cairo_restore (cr);
}

static void
draw_heatmap_legend (TvTimelineRenderer    *self,
                     cairo_t               *cr,
                     TvTimelineHeatmap     *heatmap,
                     const TvHeatmapStyle  *style,
                     const HeatmapGeometry *g)
{
  TvTimelineColor fg = tv_palette_foreground (style->dark);
  guint64 max = tv_timeline_heatmap_get_max_count (heatmap);
  g_autofree char *max_text = heatmap_count_label (max);
  double x = g->legend_x, top = g->plot_y;
  double height = g->plot_height - (style->legend_label != NULL ? g->text_height + 4 : 0);
  cairo_pattern_t *gradient;

  if (height < 2 * g->text_height)
    return;
  /* The scale from the top (the fullest cell) down to one sample. */
  gradient = cairo_pattern_create_linear (0, top, 0, top + height);
  for (guint i = 0; i <= 8; i++)
    {
      TvTimelineColor c = tv_timeline_heatmap_color (MAX (max * (8 - i) / 8, 1), MAX (max, 1),
                                                     style->dark);

      cairo_pattern_add_color_stop_rgb (gradient, i / 8.0, c.red, c.green, c.blue);
    }
  cairo_set_source (cr, gradient);
  cairo_pattern_destroy (gradient);
  cairo_rectangle (cr, x, top, HEATMAP_BAR_WIDTH, height);
  cairo_fill (cr);
  tv_draw_set_source (cr, fg, 0.3);
  cairo_set_line_width (cr, 1.0);
  cairo_rectangle (cr, x + 0.5, top + 0.5, HEATMAP_BAR_WIDTH - 1, height - 1);
  cairo_stroke (cr);

  tv_draw_set_source (cr, fg, 0.7);
  tv_draw_show_layout (cr, tv_draw_text_lookup (&self->text, max_text, FALSE), x + HEATMAP_BAR_WIDTH + 4, top);
  tv_draw_show_layout (cr, tv_draw_text_lookup (&self->text, max > 0 ? "1" : "0", FALSE), x + HEATMAP_BAR_WIDTH + 4,
               top + height - g->text_height);
  if (style->legend_label != NULL)
    tv_draw_show_layout (cr, tv_draw_text_lookup (&self->text, style->legend_label, FALSE), x,
                 top + height + 4);
}

void
tv_timeline_renderer_draw_heatmap (TvTimelineRenderer   *self,
                                   cairo_t              *cr,
                                   TvTimelineHeatmap    *heatmap,
                                   const TvHeatmapStyle *style)
{
  HeatmapGeometry g;

  g_return_if_fail (self != NULL);
  g_return_if_fail (cr != NULL);
  g_return_if_fail (heatmap != NULL);
  g_return_if_fail (style != NULL);

  if (!heatmap_style_valid (style))
    return;
  heatmap_geometry (self, heatmap, style, &g);
  cairo_save (cr);
  cairo_rectangle (cr, 0, 0, style->width, style->height);
  cairo_clip (cr);
  if (style->draw_background)
    {
      tv_draw_set_source (cr, tv_timeline_background_color (style->dark), 1.0);
      cairo_paint (cr);
    }
  if (tv_timeline_heatmap_get_n_columns (heatmap) > 0)
    {
      paint_cells (self, cr, heatmap, style, &g);
      draw_heatmap_selection (cr, heatmap, style, &g);
      draw_heatmap_axes (self, cr, heatmap, style, &g);
      draw_heatmap_legend (self, cr, heatmap, style, &g);
    }
  cairo_restore (cr);
}

gboolean
tv_timeline_renderer_heatmap_hit_test (TvTimelineRenderer   *self,
                                       TvTimelineHeatmap    *heatmap,
                                       const TvHeatmapStyle *style,
                                       double                x,
                                       double                y,
                                       gboolean              clamp,
                                       guint                *column,
                                       guint                *row)
{
  guint n_columns, n_rows;
  HeatmapGeometry g;
  double c, r;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (heatmap != NULL, FALSE);
  g_return_val_if_fail (style != NULL, FALSE);

  n_columns = tv_timeline_heatmap_get_n_columns (heatmap);
  n_rows = tv_timeline_heatmap_get_n_rows (heatmap);
  if (!heatmap_style_valid (style) || n_columns == 0 || isnan (x) || isnan (y))
    return FALSE;
  heatmap_geometry (self, heatmap, style, &g);
  c = floor ((x - g.plot_x) / g.column_width);
  r = floor ((y - g.plot_y) / g.row_height);
  if (!clamp && (c < 0 || c >= n_columns || r < 0 || r >= n_rows))
    return FALSE;
  if (column != NULL)
    *column = (guint) CLAMP (c, 0, n_columns - 1);
  if (row != NULL)
    *row = (guint) CLAMP (r, 0, n_rows - 1);
  return TRUE;
}

gboolean
tv_timeline_renderer_get_heatmap_cell (TvTimelineRenderer   *self,
                                       TvTimelineHeatmap    *heatmap,
                                       const TvHeatmapStyle *style,
                                       guint                 column,
                                       guint                 row,
                                       double               *x,
                                       double               *y,
                                       double               *width,
                                       double               *height)
{
  HeatmapGeometry g;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (heatmap != NULL, FALSE);
  g_return_val_if_fail (style != NULL, FALSE);

  if (!heatmap_style_valid (style) || column >= tv_timeline_heatmap_get_n_columns (heatmap)
      || row >= tv_timeline_heatmap_get_n_rows (heatmap))
    return FALSE;
  heatmap_geometry (self, heatmap, style, &g);
  *x = g.plot_x + column * g.column_width;
  *y = g.plot_y + row * g.row_height;
  *width = g.column_width;
  *height = g.row_height;
  return TRUE;
}

TvTimelineRenderer *
tv_timeline_renderer_new (PangoFontMap *font_map)
{
  TvTimelineRenderer *self = g_new0 (TvTimelineRenderer, 1);

  tv_draw_text_init (&self->text, font_map);
  self->labels_width = -1;
  self->busy_lanes = G_MAXUINT;
  self->spans = g_array_new (FALSE, FALSE, sizeof (Span));
  return self;
}

guint
tv_timeline_renderer_get_n_layouts (TvTimelineRenderer *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->n_layouts;
}

void
tv_timeline_renderer_free (TvTimelineRenderer *self)
{
  if (self == NULL)
    return;
  clear_lane_labels (self);
  g_free (self->rows);
  g_clear_pointer (&self->rows_timeline, tv_timeline_unref);
  g_free (self->columns);
  g_free (self->shown);
  g_free (self->covered);
  g_array_unref (self->spans);
  g_clear_pointer (&self->raster, cairo_surface_destroy);
  g_clear_pointer (&self->cells, cairo_surface_destroy);
  g_clear_pointer (&self->cells_heatmap, tv_timeline_heatmap_unref);
  tv_draw_text_clear (&self->text);
  g_free (self);
}

void
tv_timeline_renderer_set_font_options (TvTimelineRenderer         *self,
                                       const cairo_font_options_t *options)
{
  g_return_if_fail (self != NULL);

  if (tv_draw_text_set_font_options (&self->text, options))
    clear_lane_labels (self);
}

void
tv_timeline_renderer_set_resolution (TvTimelineRenderer *self,
                                     double              dpi)
{
  g_return_if_fail (self != NULL);

  if (tv_draw_text_set_resolution (&self->text, dpi))
    clear_lane_labels (self);
}
