import type { FastifyReply } from 'fastify';
import type { ApiError } from '@guquan/contract/api-error';

export function apiError(code: string, message: string, requestId?: string): ApiError {
  return { error: { code, message, requestId } };
}

export function sendApiError(
  reply: FastifyReply,
  status: number,
  code: string,
  message: string,
): FastifyReply {
  // The request's id (request-id.ts) lets a visitor's report be found in the logs.
  return reply
    .code(status)
    .header('cache-control', 'no-store')
    .send(apiError(code, message, reply.request.id));
}
