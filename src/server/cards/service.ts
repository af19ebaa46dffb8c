import {
  CARD_REQUEST_SENT_MESSAGE,
  CARD_STATUS_LABELS,
  CARD_STATUS_NEXT,
  type CardRequestDto,
  type CardRequestStatus,
  type CARD_TYPES,
} from '../../shared/contracts/cards';
import type { Paginated } from '../../shared/contracts/common';
import { audit } from '../audit/audit';
import { type ActorContext, withDb } from '../context';
import { isUniqueViolation } from '../db/errors';
import type { PageRequest } from '../db/paginate';
import { inTransaction } from '../db/transaction';
import { AppError, conflict, forbidden, notFound } from '../lib/errors';
import type { Outcome } from '../lib/outcome';
import { queueMail } from '../mail/outbox';
import { brandOf, plainMail } from '../mail/templates';
import * as repository from './repository';

export const CARD_REQUEST_NOT_FOUND = 'Card request not found';
/** What staff are told once a request's status is set. */
const CARD_STATUS_MESSAGES: Record<CardRequestStatus, string> = {
  pending: 'Card request back in review',
  approved: 'Card request approved',
  rejected: 'Card request declined',
  shipped: 'Card request marked as shipped',
};
const OPEN_LIST_MAX = 50;

export function toCardRequestDto(row: repository.CardRequestRow, customer?: repository.CustomerColumns): CardRequestDto {
  return {
    _id: row.id,
    cardType: row.card_type,
    status: row.status,
    note: row.note,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
    ...(customer ? { customer: { id: row.user_id, firstName: customer.first_name, lastName: customer.last_name, email: customer.email } } : {}),
  };
}

export async function requestCard(ctx: ActorContext, cardType: (typeof CARD_TYPES)[number]): Promise<Outcome<CardRequestDto>> {
  const user = ctx.actor.user;
  if (user.is_blocked) throw forbidden('Your account is blocked. Please contact support.');
  try {
    const row = await repository.insertCardRequest(ctx.db, user.id, cardType);
    return { data: toCardRequestDto(row), message: CARD_REQUEST_SENT_MESSAGE, created: true };
  } catch (error) {
    if (isUniqueViolation(error, repository.OPEN_REQUEST_CONSTRAINT)) {
      throw conflict(`You already have a ${cardType} card request under review. We will get back to you.`);
    }
    throw error;
  }
}

export async function myCardRequests(ctx: ActorContext): Promise<CardRequestDto[]> {
  const rows = await repository.listCustomerCardRequests(ctx.db, ctx.actor.user.id, OPEN_LIST_MAX);
  return rows.map((row) => toCardRequestDto(row));
}

export async function cardRequestQueue(ctx: ActorContext, status: CardRequestStatus | 'all', page: PageRequest): Promise<Paginated<CardRequestDto>> {
  const result = await repository.cardRequestQueue(ctx.db, status, page);
  return { ...result, items: result.items.map((row) => toCardRequestDto(row, row)) };
}

/** Staff moves a request forward (audited); the customer is emailed the new status (queued with the change). */
export async function changeCardRequestStatus(
  ctx: ActorContext,
  id: string,
  change: { status: CardRequestStatus; note?: string | undefined },
): Promise<Outcome<CardRequestDto>> {
  const row = await inTransaction(ctx.db, async (trx) => {
    const current = await repository.lockCardRequest(trx, id);
    if (!current) throw notFound(CARD_REQUEST_NOT_FOUND);
    if (!CARD_STATUS_NEXT[current.status].includes(change.status)) {
      throw new AppError(
        'conflict',
        `A ${CARD_STATUS_LABELS[current.status].toLowerCase()} request cannot become ${CARD_STATUS_LABELS[change.status].toLowerCase()}.`,
      );
    }
    const updated = await repository.setCardRequestStatus(trx, current.id, {
      status: change.status,
      note: change.note ?? current.note,
      decidedBy: ctx.actor.user.id,
    });
    await audit(trx, ctx.actor, {
      action: 'card_request.status',
      targetUserId: current.user_id,
      targetType: 'card_request',
      targetId: current.id,
      before: { status: current.status },
      after: { status: updated.status, note: updated.note },
      reason: change.note ?? null,
    });
    const customer = await repository.cardRequestOwner(trx, current.user_id);
    const label = CARD_STATUS_LABELS[updated.status];
    await queueMail(
      withDb(ctx, trx),
      plainMail(
        brandOf(ctx.config),
        customer.email,
        `your ${updated.card_type} card request: ${label.toLowerCase()}`,
        `Hello ${customer.first_name},\n\nYour ${updated.card_type} card request is now: ${label}.${updated.note ? `\n\n${updated.note}` : ''}`,
      ),
    );
    return updated;
  });
  return { data: toCardRequestDto(row), message: CARD_STATUS_MESSAGES[row.status] };
}
