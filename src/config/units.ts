// OpenSearch's byte sizes (`100mb`) with its parse messages.

const BYTE_UNITS: Record<string, number> = {
  b: 1,
  kb: 1024,
  mb: 1024 ** 2,
  gb: 1024 ** 3,
  tb: 1024 ** 4,
  pb: 1024 ** 5,
};

export function parseByteSize(value: string, setting: string): number {
  const v = value.trim().toLowerCase();
  if (v === '-1') return -1;
  if (v === '0') return 0;
  const m = /^([0-9]+(?:\.[0-9]+)?)\s*(b|kb|mb|gb|tb|pb|k|m|g|t|p)$/.exec(v);
  if (m === null) {
    throw new Error(
      `failed to parse setting [${setting}] with value [${value}] as a size in bytes: unit is missing or unrecognized`,
    );
  }
  const unit = m[2] ?? 'b';
  const mult = BYTE_UNITS[unit.length === 1 && unit !== 'b' ? `${unit}b` : unit] ?? 1;
  return Math.floor(Number(m[1]) * mult);
}
