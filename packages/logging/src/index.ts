export {
  createLogger,
  type Logger,
  type LoggerOptions,
  type LogLevel,
  silentLogger,
} from "./create-logger.ts";
export { describeError } from "./describe-error.ts";
