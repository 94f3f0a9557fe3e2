// /dating-resources: the library of short guides on dating well and safely, by topic (the topic is in the
// address, so Back returns to it). Everything ships with the app: the library reads offline.
import { useEffect, useRef } from 'react';
import { BookOpen, Clock } from 'lucide-react';
import { Link, useSearchParams } from 'react-router-dom';
import { TOPICS, getArticles, getReadingMinutes, getTopicLabel, isTopicId } from './articles.ts';
import { TopicIcon } from './topic-icon.tsx';

const CHIP =
  'inline-flex items-center whitespace-nowrap rounded-full border px-3 py-1.5 text-sm font-medium transition';
const CHIP_ON = 'border-primary bg-primary text-primary-fg';
const CHIP_OFF = 'border-border bg-card hover:bg-subtle';

export default function DatingResourcesPage() {
  const [params] = useSearchParams();
  const asked = params.get('topic');
  const topic = isTopicId(asked) ? asked : undefined;
  useEffect(() => {
    document.title = 'Dating Resources · HeartSync';
  }, []);
  // On a phone the row of topics scrolls sideways: the chosen one is brought into it (a shared link, Back).
  const topics = useRef<HTMLElement>(null);
  useEffect(() => {
    topics.current
      ?.querySelector('[aria-current="page"]')
      ?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
  }, [topic]);
  const articles = getArticles(topic);

  return (
    <main id="main" className="mx-auto max-w-4xl p-4 md:p-8">
      <h1 className="flex items-center gap-2 text-3xl font-bold">
        <BookOpen aria-hidden="true" className="size-8 text-primary" />
        Dating Resources
      </h1>
      <p className="mt-1 text-muted">
        Short guides on dating well and safely. They are on your device: they read offline too.
      </p>
      {/* On a phone the topics scroll sideways in one row rather than wrapping over the guides. */}
      <nav ref={topics} aria-label="Topics" className="-mx-4 mt-4 overflow-x-auto px-4 pb-1">
        <ul className="flex gap-2">
          <li>
            <Link
              to="/dating-resources"
              aria-current={topic === undefined ? 'page' : undefined}
              className={`${CHIP} ${topic === undefined ? CHIP_ON : CHIP_OFF}`}
            >
              All
            </Link>
          </li>
          {TOPICS.map((t) => (
            <li key={t.id}>
              <Link
                to={`/dating-resources?topic=${t.id}`}
                aria-current={topic === t.id ? 'page' : undefined}
                className={`${CHIP} ${topic === t.id ? CHIP_ON : CHIP_OFF}`}
              >
                {t.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <ul className="mt-6 grid gap-3 sm:grid-cols-2" aria-label="Guides">
        {articles.map((a) => (
          <li key={a.slug} className="card p-0">
            <Link
              to={`/articles/${a.slug}`}
              className="flex h-full flex-col gap-2 rounded-[inherit] p-4 transition hover:bg-subtle focus-visible:ring-2 focus-visible:ring-primary focus-visible:outline-none"
            >
              <span className="flex items-center gap-1.5 text-xs font-semibold tracking-wide text-primary uppercase">
                <TopicIcon topic={a.topic} className="size-4" />
                {getTopicLabel(a.topic)}
              </span>
              <span className="text-lg leading-snug font-semibold">{a.title}</span>
              <span className="text-sm text-muted">{a.summary}</span>
              <span className="mt-auto flex items-center gap-1 pt-1 text-xs text-muted">
                <Clock aria-hidden="true" className="size-3.5" />
                {getReadingMinutes(a)} min read
              </span>
            </Link>
          </li>
        ))}
      </ul>
      <p className="card mt-8 text-sm">
        The essentials on one page are in the{' '}
        <Link to="/safety-center" className="link">
          Safety Center
        </Link>
        ; questions about your account are answered in{' '}
        <Link to="/help" className="link">
          Help
        </Link>
        .
      </p>
    </main>
  );
}
