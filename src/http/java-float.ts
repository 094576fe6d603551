// Fields OpenSearch writes from a Java float, which JSON.stringify would print as integers when
// whole: `"requests_per_second":-1.0`, not `-1`.
const FLOAT_FIELDS = /"(requests_per_second)":(-?\d+)(?=[,}])/g;

export function withJavaFloats(json: string): string {
  return json.replace(FLOAT_FIELDS, '"$1":$2.0');
}
