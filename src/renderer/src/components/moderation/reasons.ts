/** atproto's report reason types (com.atproto.moderation.defs), in words people use. */
export const REASONS: { type: string; label: string; hint: string }[] = [
  { type: 'com.atproto.moderation.defs#reasonSpam', label: 'Spam', hint: 'Ads, scams, the same thing over and over' },
  { type: 'com.atproto.moderation.defs#reasonViolation', label: 'Breaks the rules', hint: 'Against the group’s rules or the law' },
  { type: 'com.atproto.moderation.defs#reasonMisleading', label: 'Misleading', hint: 'False or deceiving' },
  { type: 'com.atproto.moderation.defs#reasonSexual', label: 'Sexual content', hint: 'Unwanted sexual content' },
  { type: 'com.atproto.moderation.defs#reasonRude', label: 'Rude', hint: 'Harassment, insults, trolling' },
  { type: 'com.atproto.moderation.defs#reasonOther', label: 'Something else', hint: 'Say what in the words below' },
  { type: 'com.atproto.moderation.defs#reasonAppeal', label: 'Appeal', hint: 'Ask the moderators to look again at a decision' },
]

/** A reason type as words; older free-form types ("spam") as they were sent. */
export const reasonLabel = (type: string) => REASONS.find((r) => r.type === type)?.label ?? type
