// The app shell: providers, the security wrapper, the full-screen loading rule and the routes table of spec §2.
import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { BrowserRouter, Route, Routes } from 'react-router-dom';
import LandingPage from '../features/landing/landing-page.tsx';
import { PublicLayout } from '../features/landing/public-layout.tsx';
import { ThemeProvider } from '../ui/theme-context.tsx';
import { AuthProvider, registerSignOutCleanup, useAuth } from '../session/auth-context.tsx';
import { CookieBanner } from './cookie-banner.tsx';
import { ErrorBoundary } from '../ui/error-boundary.tsx';
import { HomeRedirect, RequireAuth } from './guards.tsx';
import { FullScreenLoading, PageLoading } from '../ui/loading-screen.tsx';
import { useOnline } from '../data/network.ts';
import { MEMBER_LAYOUT_PARTS } from './member-layout-parts.ts';
import { preloadableLazy } from './preloadable-lazy.ts';
import { SecurityWrapper } from './security-wrapper.tsx';

const LoginPage = lazy(() => import('../features/accounts/login-page.tsx'));
const SignupPage = lazy(() => import('../features/accounts/signup-page.tsx'));
const ForgotPasswordPage = lazy(() => import('../features/accounts/forgot-password-page.tsx'));
const ResetPasswordPage = lazy(() => import('../features/accounts/reset-password-page.tsx'));
const AuthCallbackPage = lazy(() => import('../features/accounts/auth-callback-page.tsx'));
const EmailConfirmationPendingPage = lazy(
  () => import('../features/accounts/email-confirmation-pending-page.tsx'),
);
/** The member pages by route, so a returning member's page starts loading from the entry script. */
const MEMBER_PAGES = {
  '/account': preloadableLazy(() => import('../features/settings/account-page.tsx')),
  '/messages': preloadableLazy(() => import('../features/messages/messages-page.tsx')),
  '/notifications': preloadableLazy(() => import('../features/notifications/notifications-page.tsx')),
  '/dashboard': preloadableLazy(() => import('../features/dashboard/dashboard-page.tsx')),
  '/find-matches': preloadableLazy(() => import('../features/discovery/discovery-page.tsx')),
  '/match-list': preloadableLazy(() => import('../features/matches/match-list-page.tsx')),
  '/likes': preloadableLazy(() => import('../features/likes/likes-page.tsx')),
  '/profile': preloadableLazy(() => import('../features/profile/profile-page.tsx')),
  '/agent-settings': preloadableLazy(() => import('../features/agents/agent-settings-page.tsx')),
  '/games': preloadableLazy(() => import('../features/games/game-portal-page.tsx')),
  '/dating-resources': preloadableLazy(() => import('../features/resources/resources-page.tsx')),
};
const AccountPage = MEMBER_PAGES['/account'].Component;
const MessagesPage = MEMBER_PAGES['/messages'].Component;
const NotificationsPage = MEMBER_PAGES['/notifications'].Component;
const DashboardPage = MEMBER_PAGES['/dashboard'].Component;
const DiscoveryPage = MEMBER_PAGES['/find-matches'].Component;
const MatchListPage = MEMBER_PAGES['/match-list'].Component;
const LikesPage = MEMBER_PAGES['/likes'].Component;
const ProfilePage = MEMBER_PAGES['/profile'].Component;
const AgentSettingsPage = MEMBER_PAGES['/agent-settings'].Component;
const GamePortalPage = MEMBER_PAGES['/games'].Component;
const DatingResourcesPage = MEMBER_PAGES['/dating-resources'].Component;
const GamePage = lazy(() => import('../features/games/game-page.tsx'));
const ArticlePage = lazy(() => import('../features/resources/article-page.tsx'));

// The member area's shell (sidebar, tab bar, banners, Lovy's launcher) and the rules of a signed-in session
// (presence, idle timeout) load apart from the entry script: a visitor on the landing never runs them, and a
// returning member's copy starts loading from the entry script (preloadMemberRoute) (issue 21: the landing's
// initial JavaScript).
// The layout's code comes with its parts (the replica provider and what needs it) and the page it opens on, so
// neither suspends once the layout shows: each would make React hold the page back for its fallback throttle
// (about 300 ms), and on a member's first screen after signing in the replica provider did (decision 0082).
// A part that fails to load here loads again when it renders.
const memberLayout = preloadableLazy(() =>
  Promise.all([
    import('./member-layout.tsx'),
    ...[...MEMBER_LAYOUT_PARTS, () => preloadMemberPage(window.location.pathname)].map((load) =>
      load().catch(() => undefined),
    ),
  ]).then(([m]) => ({ default: m.MemberLayout })),
);
const MemberLayout = memberLayout.Component;
const queryScope = preloadableLazy(() => import('./query-scope.tsx'));
const QueryScope = queryScope.Component;
// Shown only after the first render (nothing of theirs is in the pre-rendered landing), so their code loads
// after the page's.
const Toaster = lazy(() => import('../ui/toaster.tsx').then((m) => ({ default: m.Toaster })));
const UpdatePrompt = lazy(() => import('../ui/update-prompt.tsx').then((m) => ({ default: m.UpdatePrompt })));
const signedInRules = preloadableLazy(() => import('./signed-in-rules.tsx'));
const SignedInRules = signedInRules.Component;

/** Loads the code of the member page at `pathname`, if it is one. */
function preloadMemberPage(pathname: string): Promise<unknown> {
  const path = pathname.replace(/\/+$/, '');
  // The builder is the profile page in steps.
  const page = MEMBER_PAGES[
    (path === '/profile-builder' ? '/profile' : path) as keyof typeof MEMBER_PAGES
  ] as { preload: () => Promise<unknown> } | undefined;
  return page ? page.preload() : Promise.resolve();
}

/**
 * Starts loading the member area's code without waiting: the session rules, the query scope and the member
 * layout, whose loader brings its parts and the page at the address.
 */
export function preloadMemberRoute(): void {
  for (const load of [signedInRules.preload, queryScope.preload, memberLayout.preload])
    void load().catch(() => undefined);
}

const product = () => import('../features/public-pages/product-pages.tsx');
const help = () => import('../features/public-pages/help-pages.tsx');
const legal = () => import('../features/public-pages/legal-pages.tsx');
const AiFeaturesPage = lazy(() => product().then((m) => ({ default: m.AiFeaturesPage })));
const HowItWorksPage = lazy(() => product().then((m) => ({ default: m.HowItWorksPage })));
const SuccessStoriesPage = lazy(() => product().then((m) => ({ default: m.SuccessStoriesPage })));
const CompareAppsPage = lazy(() => product().then((m) => ({ default: m.CompareAppsPage })));
const CommunityPage = lazy(() => product().then((m) => ({ default: m.CommunityPage })));
const SafetyCenterPage = lazy(() => help().then((m) => ({ default: m.SafetyCenterPage })));
const HelpPage = lazy(() => help().then((m) => ({ default: m.HelpPage })));
const ContactPage = lazy(() => help().then((m) => ({ default: m.ContactPage })));
const ManageSubscriptionPage = lazy(() => help().then((m) => ({ default: m.ManageSubscriptionPage })));
const TermsPage = lazy(() => legal().then((m) => ({ default: m.TermsPage })));
const PrivacyPage = lazy(() => legal().then((m) => ({ default: m.PrivacyPage })));
const CookiesPage = lazy(() => legal().then((m) => ({ default: m.CookiesPage })));
const NotFoundPage = lazy(() => legal().then((m) => ({ default: m.NotFoundPage })));

const PricingPage = lazy(() => import('../features/payments/pricing-page.tsx'));
const CheckoutPage = lazy(() => import('../features/payments/checkout-page.tsx'));
const PaymentSuccessPage = lazy(() => import('../features/payments/payment-success-page.tsx'));
const MemberManageSubscriptionPage = lazy(() => import('../features/payments/manage-subscription-page.tsx'));

/** /manage-subscription: the member's plan and billing portal when signed in, the help text otherwise. */
function ManageSubscriptionRoute() {
  const { isAuthenticated } = useAuth();
  return isAuthenticated ? <MemberManageSubscriptionPage /> : <ManageSubscriptionPage />;
}

// At sign-out the next person on this device must see nothing of this member's data: the replica (loaded
// for this only if the page never opened it) clears its local database, but for the upload queue of a member
// who did not ask to sign out, kept for them alone (decision 0114).
registerSignOutCleanup((keptFor) =>
  import('../data/replica.tsx').then((m) => m.clearReplica({ keepUnsentWritesOf: keptFor })),
);

/** The full-screen 'Loading...' while auth loads, unless an e-mail confirmation is pending. */
function AuthGate({ children }: { children: ReactNode }) {
  const { isLoading, pendingEmailConfirmation } = useAuth();
  if (isLoading && !pendingEmailConfirmation) return <FullScreenLoading />;
  return children;
}

/**
 * Presence and the session rules (120-minute idle timeout, 60 s validity check) for whoever is signed in,
 * on every page: a member reading /help or the landing is still signed in and must not escape them.
 */
function SignedInRulesWhenSignedIn() {
  const { user } = useAuth();
  if (!user) return null;
  return (
    <Suspense fallback={null}>
      <SignedInRules userId={user.id} />
    </Suspense>
  );
}

/**
 * Pages both visitors and members read (Help, Community, Safety Center): a member reaches them from the
 * sidebar and stays in the member layout; a visitor sees the public one.
 */
function MemberOrPublicLayout() {
  const { isAuthenticated } = useAuth();
  return isAuthenticated ? <MemberLayout /> : <PublicLayout />;
}

function Guarded() {
  return (
    <RequireAuth>
      <MemberLayout />
    </RequireAuth>
  );
}

export function AppRoutes() {
  return (
    <Suspense fallback={<PageLoading />}>
      <Routes>
        <Route element={<PublicLayout />}>
          <Route index element={<LandingPage />} />
          <Route element={<QueryScope />}>
            <Route path="ai-features" element={<AiFeaturesPage />} />
            <Route path="how-it-works" element={<HowItWorksPage />} />
            <Route path="success-stories" element={<SuccessStoriesPage />} />
            <Route path="compare-apps" element={<CompareAppsPage />} />
            <Route path="contact" element={<ContactPage />} />
            <Route path="terms" element={<TermsPage />} />
            <Route path="privacy" element={<PrivacyPage />} />
            <Route path="cookies" element={<CookiesPage />} />
            <Route path="*" element={<NotFoundPage />} />
          </Route>
        </Route>
        <Route element={<QueryScope />}>
          <Route element={<MemberOrPublicLayout />}>
            <Route path="community" element={<CommunityPage />} />
            <Route path="safety-center" element={<SafetyCenterPage />} />
            <Route path="help" element={<HelpPage />} />
            <Route path="pricing" element={<PricingPage />} />
            <Route path="manage-subscription" element={<ManageSubscriptionRoute />} />
          </Route>
          <Route path="login" element={<LoginPage />} />
          <Route path="signup" element={<SignupPage />} />
          <Route path="forgot-password" element={<ForgotPasswordPage />} />
          <Route path="reset-password" element={<ResetPasswordPage />} />
          <Route path="auth/callback" element={<AuthCallbackPage />} />
          <Route path="email-confirmation-pending" element={<EmailConfirmationPendingPage />} />
          <Route path="home" element={<HomeRedirect />} />
          <Route element={<Guarded />}>
            <Route path="account" element={<AccountPage />} />
            <Route path="messages" element={<MessagesPage />} />
            <Route path="notifications" element={<NotificationsPage />} />
            <Route path="dashboard" element={<DashboardPage />} />
            <Route path="articles/:slug" element={<ArticlePage />} />
            <Route path="find-matches" element={<DiscoveryPage />} />
            <Route path="match-list" element={<MatchListPage />} />
            <Route path="likes" element={<LikesPage />} />
            <Route path="profile" element={<ProfilePage />} />
            <Route path="agent-settings" element={<AgentSettingsPage />} />
            <Route path="games" element={<GamePortalPage />} />
            <Route path="games/:id" element={<GamePage />} />
            <Route path="profile-builder" element={<ProfilePage builder />} />
            <Route path="checkout" element={<CheckoutPage />} />
            <Route path="payment-success" element={<PaymentSuccessPage />} />
            <Route path="dating-resources" element={<DatingResourcesPage />} />
          </Route>
        </Route>
      </Routes>
    </Suspense>
  );
}

function Providers({ children, knownSignedOut }: { children: ReactNode; knownSignedOut: boolean }) {
  // React-query's client comes with the routes that use it (query-scope.tsx); fetched once the page is idle,
  // so moving on from the landing does not wait for it.
  useEffect(() => {
    const preload = () => void queryScope.preload().catch(() => undefined);
    if ('requestIdleCallback' in window) requestIdleCallback(preload, { timeout: 3000 });
    else setTimeout(preload, 1000);
  }, []);
  return (
    <ThemeProvider>
      <AuthProvider knownSignedOut={knownSignedOut}>{children}</AuthProvider>
    </ThemeProvider>
  );
}

/** Renders its children from the second render on, so hydrating the pre-rendered page never waits for them. */
function AfterFirstRender({ children }: { children: ReactNode }) {
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  return mounted ? <Suspense fallback={null}>{children}</Suspense> : null;
}

/**
 * Renders its children once the device has been online in this page: registering the service worker asks
 * the server for its script, and offline means no request (issue 21).
 */
function OnceOnline({ children }: { children: ReactNode }) {
  const online = useOnline();
  const [seen, setSeen] = useState(online);
  useEffect(() => {
    if (online) setSeen(true);
  }, [online]);
  return seen || online ? children : null;
}

export interface AppProps {
  /**
   * The page holds the landing pre-rendered at build time for a visitor with no stored session
   * (decision 0023): the first render must be that landing, so React adopts the markup as it is.
   */
  prerendered?: boolean;
}

/** Everything inside the router: shared by the browser (App) and the build-time landing render. */
export function AppContent({ prerendered = false }: AppProps) {
  return (
    <SecurityWrapper prerendered={prerendered}>
      <Providers knownSignedOut={prerendered}>
        <AuthGate>
          <SignedInRulesWhenSignedIn />
          <AppRoutes />
        </AuthGate>
        <AfterFirstRender>
          <Toaster />
          <OnceOnline>
            <UpdatePrompt />
          </OnceOnline>
        </AfterFirstRender>
        <CookieBanner />
      </Providers>
    </SecurityWrapper>
  );
}

export function App({ prerendered = false }: AppProps) {
  return (
    <ErrorBoundary>
      <BrowserRouter>
        <AppContent prerendered={prerendered} />
      </BrowserRouter>
    </ErrorBoundary>
  );
}
