// Presence, the session rules (120-minute idle timeout, 60 s validity check), the end of an expired pause and
// what a sign-out the member did not ask for keeps (decision 0114), for a signed-in member, on every page
// (app.tsx mounts it only while someone is signed in; loaded apart from the entry script).
import { usePauseExpiryCheck } from '../session/use-pause-expiry.ts';
import { usePresence } from '../session/use-presence.ts';
import { useSessionRules } from '../session/use-session-rules.ts';
import { useSignOutKeeper } from '../session/sign-out.ts';

export default function SignedInRules({ userId }: { userId: string }) {
  usePresence(userId);
  useSessionRules(true);
  usePauseExpiryCheck(userId);
  useSignOutKeeper(userId);
  return null;
}
