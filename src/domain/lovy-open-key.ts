// Apart from the rest of lovy.ts: the landing's "Try AI Chat" needs only this, and the landing's first load
// stays small (issue 21).

/** "Try AI Chat" on the landing page stores when it asked for Lovy; the member area opens it once signed in. */
export const OPEN_LOVY_KEY = 'heartsync.openLovy';
