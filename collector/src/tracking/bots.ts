// Robots get no tracking number. isbot keeps a maintained list of crawler and tool user agents.
import { isbot } from 'isbot';

export function isBotAgent(userAgent: string | undefined): boolean {
  return userAgent ? isbot(userAgent) : false;
}
