/**
 * How long an action the window asked to hold (its Undo window) is kept back before it
 * is sent. The window asks for its own hold; CONVENE_UNDO_HOLD_MS replaces it, for tests
 * that do not test Undo and would otherwise wait it out before the host sees anything.
 */
export function undoHoldMs(asked: number | undefined): number | undefined {
  if (asked === undefined) return undefined
  const override = Number(process.env.CONVENE_UNDO_HOLD_MS)
  return process.env.CONVENE_UNDO_HOLD_MS !== undefined && Number.isFinite(override) && override >= 0 ? override : asked
}
