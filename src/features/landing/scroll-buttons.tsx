// The floating action button (after 500 px: Create Profile, Try AI Chat, Back to Top) and the back-to-top button
// (after 300 px). The spec has three ways back to the top (these two and the footer's Top): only one shows at a
// time, so the floating button steps aside while the action menu is open or the footer (with its own) is in view.
import { ArrowUp, Heart, X } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { OPEN_LOVY_KEY } from '../../domain/lovy-open-key.ts';

export const FAB_THRESHOLD_PX = 500;
export const BACK_TO_TOP_THRESHOLD_PX = 300;

function useScroll() {
  // Starts at the top, as the pre-rendered landing does; the real position is read once mounted.
  const [y, setY] = useState(0);
  const [goingUp, setGoingUp] = useState(false);
  const last = useRef(0);
  useEffect(() => {
    last.current = window.scrollY;
    setY(window.scrollY);
    const onScroll = () => {
      const now = window.scrollY;
      setGoingUp(now < last.current);
      last.current = now;
      setY(now);
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, []);
  return { y, goingUp };
}

const toTop = () => window.scrollTo({ top: 0, behavior: 'smooth' });

/** Whether the page's footer is on screen. */
function useFooterInView(): boolean {
  const [inView, setInView] = useState(false);
  useEffect(() => {
    const footer = document.querySelector('footer');
    if (!footer || typeof IntersectionObserver !== 'function') return;
    const observer = new IntersectionObserver(([entry]) => setInView(entry?.isIntersecting ?? false));
    observer.observe(footer);
    return () => observer.disconnect();
  }, []);
  return inView;
}

export function ScrollButtons() {
  const { y, goingUp } = useScroll();
  const [menuOpen, setMenuOpen] = useState(false);
  const navigate = useNavigate();
  const footerInView = useFooterInView();

  // Scrolling back up closes the menu.
  useEffect(() => {
    if (goingUp) setMenuOpen(false);
  }, [goingUp, y]);

  return (
    <>
      {y > BACK_TO_TOP_THRESHOLD_PX && !menuOpen && !footerInView && (
        <button
          type="button"
          aria-label="Back to top"
          className="fixed bottom-6 left-6 z-30 rounded-full border border-border bg-card px-3 py-2 text-sm shadow-lg hover:bg-subtle"
          onClick={toTop}
        >
          <ArrowUp aria-hidden="true" className="mr-1 inline size-4" />
          Top
        </button>
      )}
      {y > FAB_THRESHOLD_PX && (
        <div className="fixed right-6 bottom-24 z-30 flex flex-col items-end gap-2">
          {menuOpen && (
            <ul id="fab-menu" className="flex flex-col items-end gap-2">
              <li>
                <button
                  type="button"
                  className="btn-secondary shadow-lg"
                  onClick={() => void navigate('/signup')}
                >
                  Create Profile
                </button>
              </li>
              <li>
                <button
                  type="button"
                  className="btn-secondary shadow-lg"
                  onClick={() => {
                    // Lovy opens once the visitor is signed in (the member area reads this request).
                    try {
                      localStorage.setItem(OPEN_LOVY_KEY, String(Date.now()));
                    } catch {
                      /* storage unavailable: the member opens Lovy from the header */
                    }
                    void navigate('/dashboard');
                  }}
                >
                  Try AI Chat
                </button>
              </li>
              <li>
                <button
                  type="button"
                  className="btn-secondary shadow-lg"
                  onClick={() => {
                    setMenuOpen(false);
                    toTop();
                  }}
                >
                  Back to Top
                </button>
              </li>
            </ul>
          )}
          <button
            type="button"
            aria-label={menuOpen ? 'Close quick actions' : 'Open quick actions'}
            aria-expanded={menuOpen}
            aria-controls="fab-menu"
            className="size-14 rounded-full bg-primary text-2xl text-primary-fg shadow-xl"
            onClick={() => setMenuOpen((o) => !o)}
          >
            {menuOpen ? (
              <X aria-hidden="true" className="mx-auto size-6" />
            ) : (
              <Heart aria-hidden="true" className="mx-auto size-6" />
            )}
          </button>
        </div>
      )}
    </>
  );
}
