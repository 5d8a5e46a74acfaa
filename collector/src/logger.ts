// Structured JSON logs. Keys and credentials never reach them: request logs name the path only.
import { pino, type DestinationStream, type Logger, type LoggerOptions } from 'pino';

export type { Logger };

export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options: LoggerOptions = {
    level,
    // The process too: with WORKERS=N, N processes write to one output.
    base: { service: 'ringtrail-collector', pid: process.pid },
    redact: {
      paths: ['*.api_key', '*.apiKey', '*.key', '*.authorization', '*.password', 'uri'],
      censor: '[redacted]',
    },
  };
  return destination ? pino(options, destination) : pino(options);
}
