export type LogLevel = "debug" | "info" | "warn" | "error" | "silent";
const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 };

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  child(bindings: Record<string, unknown>): Logger;
}

/** Structured JSON lines. Callers pass fields, never request headers or bodies. */
export function createLogger(
  options: {
    level?: LogLevel;
    write?: (line: string) => void;
    bindings?: Record<string, unknown>;
  } = {},
): Logger {
  const min = RANK[options.level ?? "info"];
  const write = options.write ?? ((line: string) => process.stdout.write(`${line}\n`));
  const bindings = options.bindings ?? {};
  const log =
    (level: Exclude<LogLevel, "silent">) => (msg: string, fields?: Record<string, unknown>) => {
      if (RANK[level] < min) return;
      write(JSON.stringify({ time: new Date().toISOString(), level, msg, ...bindings, ...fields }));
    };
  return {
    debug: log("debug"),
    info: log("info"),
    warn: log("warn"),
    error: log("error"),
    child: (more) => createLogger({ ...options, bindings: { ...bindings, ...more } }),
  };
}

/** A logger that drops everything (tests, benchmarks). */
export const silentLogger: Logger = createLogger({ level: "silent" });
