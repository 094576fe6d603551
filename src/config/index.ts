// Node settings (see load-config.ts for the layering and settings.ts for the registry).
export { loadConfig, type ConfigSources, type NodeConfig, type SecuritySettings } from './load-config';
export { SETTINGS, SETTING_KEYS, type SettingKey, type SettingValues } from './settings';
export { parseAutoCreateIndex, type AutoCreateIndex } from './auto-create-index';
export { parsePortRange, portsOf, type PortRange } from './port-range';
export { parseNetworkHost } from './network-host';
export { formatBytes, formatMillis, formatTimeValue, parseByteSize, parseTimeValue, timeValueMillis, type TimeUnit, type TimeValue } from './units';
