import type { FastifyReply } from 'fastify';
import type { ApiError } from '@guquan/contract/api-error';

export function apiError(code: string, message: string): ApiError {
  return { error: { code, message } };
}

export function sendApiError(
  reply: FastifyReply,
  status: number,
  code: string,
  message: string,
): FastifyReply {
  return reply.code(status).header('cache-control', 'no-store').send(apiError(code, message));
}
