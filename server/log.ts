// Minimal structured logger (JSON lines on stderr); level from config.
type Level = 'debug' | 'info' | 'warn' | 'error' | 'silent';
const order: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 };

export type Logger = {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
};

export function createLogger(level: Level, base: Record<string, unknown> = {}): Logger {
  const emit = (l: Exclude<Level, 'silent'>, msg: string, fields?: Record<string, unknown>) => {
    if (order[l] < order[level]) return;
    const line = { t: new Date().toISOString(), level: l, msg, ...base, ...fields };
    process.stderr.write(JSON.stringify(line, (_k, v) => (typeof v === 'bigint' ? v.toString() : v)) + '\n');
  };
  return {
    debug: (m, f) => emit('debug', m, f),
    info: (m, f) => emit('info', m, f),
    warn: (m, f) => emit('warn', m, f),
    error: (m, f) => emit('error', m, f),
  };
}
