import type { Button, Reply } from '../reply.ts';

/** The page to show for a requested one: within 1..the last page (page 1 of an empty list), so "page 99/5" never happens. */
export function pageInRange(page: number, total: number, pageSize: number): number {
  return Math.min(Math.max(1, page), Math.max(1, Math.ceil(total / pageSize)));
}

/**
 * Previous / Next buttons for a paged list; `idFor(page)` builds each button's custom id. Both are
 * always shown (disabled at the ends) so the row does not jump around while paging.
 */
export function pagerRow(idFor: (page: number) => string, page: number, hasMore: boolean): Button[] {
  return [
    { kind: 'action', customId: idFor(page - 1), label: '◀ Previous', style: 'secondary', disabled: page <= 1 },
    { kind: 'action', customId: idFor(page + 1), label: 'Next ▶', style: 'secondary', disabled: !hasMore },
  ];
}

/** Said above a page shown in place of one past the end (an old button, a typed page:9), so the swap is not silent. */
export function pastTheEnd(reply: Reply, requested: number, shown: number): Reply {
  if (requested === shown) return reply;
  const note = `There is no page ${requested}; this is page ${shown}, the last.`;
  return { ...reply, content: reply.content ? `${note}\n${reply.content}` : note };
}
