// /articles/{slug}: one guide of the Dating Resources library, with the guides to read next. An address
// that names no guide says so and leads back to the library.
import { useEffect } from 'react';
import { ArrowLeft, Clock } from 'lucide-react';
import { Link, useParams } from 'react-router-dom';
import { getArticle, getReadingMinutes, getRelated, getTopicLabel } from './articles.ts';
import { TopicIcon } from './topic-icon.tsx';

function BackToLibrary() {
  return (
    <Link to="/dating-resources" className="link inline-flex items-center gap-1 text-sm">
      <ArrowLeft aria-hidden="true" className="size-4" />
      Dating Resources
    </Link>
  );
}

export default function ArticlePage() {
  const { slug = '' } = useParams();
  const article = getArticle(slug);
  useEffect(() => {
    document.title = `${article?.title ?? 'Article not found'} · HeartSync`;
  }, [article]);
  // A guide opened from the bottom of another (Keep reading) starts at its top.
  useEffect(() => {
    window.scrollTo({ top: 0 });
  }, [slug]);

  if (!article)
    return (
      <main id="main" className="mx-auto max-w-3xl p-4 md:p-8">
        <BackToLibrary />
        <h1 className="mt-4 text-3xl font-bold">Article not found</h1>
        <p className="mt-2 text-muted">
          There is no guide at this address. It may have moved: the library lists them all.
        </p>
        <Link to="/dating-resources" className="btn-primary mt-6">
          See all guides
        </Link>
      </main>
    );

  const related = getRelated(article);
  return (
    <main id="main" className="mx-auto max-w-3xl p-4 md:p-8">
      <BackToLibrary />
      <article className="prose-page mt-4" aria-labelledby="article-title">
        <p className="!mb-1 flex items-center gap-1.5 text-xs font-semibold tracking-wide text-primary uppercase">
          <TopicIcon topic={article.topic} className="size-4" />
          {getTopicLabel(article.topic)}
        </p>
        <h1 id="article-title" className="text-3xl leading-tight font-bold md:text-4xl">
          {article.title}
        </h1>
        <p className="mt-2 flex items-center gap-1 text-sm text-muted">
          <Clock aria-hidden="true" className="size-4" />
          {getReadingMinutes(article)} min read
        </p>
        <p className="mt-4 text-lg text-muted">{article.summary}</p>
        {article.sections.map((s, i) => (
          <section key={s.heading ?? i} aria-label={s.heading}>
            {s.heading && <h2>{s.heading}</h2>}
            {s.paragraphs?.map((p) => (
              <p key={p}>{p}</p>
            ))}
            {s.list && (
              <ul>
                {s.list.map((item) => (
                  <li key={item}>{item}</li>
                ))}
              </ul>
            )}
          </section>
        ))}
      </article>
      {related.length > 0 && (
        <section aria-labelledby="keep-reading" className="mt-10 border-t border-border pt-6">
          <h2 id="keep-reading" className="text-lg font-semibold">
            Keep reading
          </h2>
          <ul className="mt-3 grid gap-2">
            {related.map((r) => (
              <li key={r.slug}>
                <Link
                  to={`/articles/${r.slug}`}
                  className="card flex items-center gap-3 p-3 transition hover:bg-subtle"
                >
                  <TopicIcon topic={r.topic} className="size-5 shrink-0 text-primary" />
                  <span className="min-w-0">
                    <span className="block font-medium">{r.title}</span>
                    <span className="block text-sm text-muted">{r.summary}</span>
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        </section>
      )}
    </main>
  );
}
