// Structured JSON logs. Keys and credentials never reach them: request logs name the path only.
import { pino, type Logger } from 'pino';

export type { Logger };

export function createLogger(level: string): Logger {
  return pino({
    level,
    base: { service: 'ringtrail-collector' },
    redact: {
      paths: ['*.api_key', '*.apiKey', '*.key', '*.authorization', '*.password', 'uri'],
      censor: '[redacted]',
    },
  });
}
