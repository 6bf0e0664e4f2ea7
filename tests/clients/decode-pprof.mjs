// Reads a gzipped pprof profile with the npm package pprof-format (a
// decoder the viewer has no part in) and prints what it holds as JSON,
// every index into the string table resolved: the client side of
// test-pprof.py.
//
// Usage: node decode-pprof.mjs PROFILE.pb.gz
import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { Profile } from "pprof-format";

const profile = Profile.decode(gunzipSync(readFileSync(process.argv[2])));
const strings = profile.stringTable.strings;
const str = (i) => {
  const s = strings[Number(i)];
  if (s === undefined) throw new Error(`string index ${i} out of range`);
  return s;
};
const num = (n) => Number(n);
const valueType = (v) => (v ? { type: str(v.type), unit: str(v.unit) } : null);

const out = {
  first_string: strings[0],
  sample_types: profile.sampleType.map(valueType),
  period_type: valueType(profile.periodType),
  period: num(profile.period),
  duration_nanos: num(profile.durationNanos),
  time_nanos: num(profile.timeNanos),
  default_sample_type: str(profile.defaultSampleType),
  comments: profile.comment.map(str),
  mappings: profile.mapping.length,
  functions: profile.function.map((f) => ({
    id: num(f.id), name: str(f.name), system_name: str(f.systemName),
    filename: str(f.filename), start_line: num(f.startLine),
  })),
  locations: profile.location.map((l) => ({
    id: num(l.id), mapping_id: num(l.mappingId),
    lines: l.line.map((x) => ({ function_id: num(x.functionId), line: num(x.line),
                                column: num(x.column) })),
  })),
  samples: profile.sample.map((s) => ({
    locations: s.locationId.map(num),
    values: s.value.map(num),
    labels: Object.fromEntries(s.label.map((l) => [str(l.key), str(l.str)])),
  })),
};
process.stdout.write(JSON.stringify(out));
