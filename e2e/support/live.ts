/**
 * How long a window may take to go live: a first attempt whose handshake the host does
 * not answer ends after the app's 15 s handshake timeout and is tried again after a
 * second, so one slow upgrade on a loaded machine is not taken for no live updates.
 */
export const LIVE_WITHIN_MS = 40_000
