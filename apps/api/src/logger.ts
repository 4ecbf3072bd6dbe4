export type LogLevel = "debug" | "info" | "warn" | "error" | "silent";
const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 };

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  child(bindings: Record<string, unknown>): Logger;
}

const writeStdout = (line: string) => {
  process.stdout.write(`${line}\n`);
};

/** Structured JSON lines. Callers pass fields, never request headers or bodies. */
class JsonLogger implements Logger {
  constructor(
    private readonly min: number,
    private readonly write: (line: string) => void,
    private readonly bindings: Record<string, unknown>,
  ) {}

  #log(level: Exclude<LogLevel, "silent">, msg: string, fields?: Record<string, unknown>): void {
    if (RANK[level] < this.min) return;
    this.write(
      JSON.stringify({ time: new Date().toISOString(), level, msg, ...this.bindings, ...fields }),
    );
  }

  debug(msg: string, fields?: Record<string, unknown>) {
    this.#log("debug", msg, fields);
  }
  info(msg: string, fields?: Record<string, unknown>) {
    this.#log("info", msg, fields);
  }
  warn(msg: string, fields?: Record<string, unknown>) {
    this.#log("warn", msg, fields);
  }
  error(msg: string, fields?: Record<string, unknown>) {
    this.#log("error", msg, fields);
  }
  child(more: Record<string, unknown>): Logger {
    return new JsonLogger(this.min, this.write, { ...this.bindings, ...more });
  }
}

export function createLogger(
  options: {
    level?: LogLevel;
    write?: (line: string) => void;
    bindings?: Record<string, unknown>;
  } = {},
): Logger {
  return new JsonLogger(
    RANK[options.level ?? "info"],
    options.write ?? writeStdout,
    options.bindings ?? {},
  );
}

/** A logger that drops everything (tests, benchmarks). */
export const silentLogger: Logger = createLogger({ level: "silent" });
