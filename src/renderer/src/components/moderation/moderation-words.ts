/** A report's status and the acts in its history, in the words the moderation views use. */
export const STATUS_WORDS: Record<string, string> = { open: 'Open', escalated: 'Escalated', resolved: 'Resolved' }
export const EVENT_WORDS: Record<string, string> = {
  report: 'Reported',
  status: 'Status set',
  eject: 'Removed from the group',
  comment: 'Comment',
  acknowledge: 'Acknowledged',
  escalate: 'Escalated',
  resolve: 'Resolved',
  takedown: 'Taken down',
  reverseTakedown: 'Restored',
  assign: 'Taken (“I’m on it”)',
  unassign: 'Released',
  pin: 'Pinned to the top of the queue',
  unpin: 'Unpinned',
}
