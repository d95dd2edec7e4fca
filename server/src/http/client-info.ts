/** What a new session records about the browser that asked for it. */
import type { FastifyRequest } from 'fastify';

export interface ClientInfo {
  ip: string;
  userAgent: string;
}

export function clientInfo(request: FastifyRequest): ClientInfo {
  return { ip: request.ip, userAgent: request.headers['user-agent'] ?? '' };
}
