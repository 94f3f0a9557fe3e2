// Frame of a public content page: title, lead and readable body.
import { useEffect, useState, type ReactNode } from 'react';
import { getAppConfig } from '../../data/app-config.ts';

export function PublicPage({ title, lead, children }: { title: string; lead?: string; children: ReactNode }) {
  useEffect(() => {
    document.title = `${title} · HeartSync`;
  }, [title]);
  return (
    <main id="main" className="prose-page mx-auto max-w-4xl px-4 py-12">
      <h1 className="text-4xl font-bold">{title}</h1>
      {lead && <p className="mt-3 text-lg text-muted">{lead}</p>}
      <div className="mt-8">{children}</div>
    </main>
  );
}

export interface Operator {
  name: string;
  contact: string | undefined;
}

const NEUTRAL_OPERATOR = 'the operator of this HeartSync instance';

/** Who runs this instance, from /app-config.json; neutral wording until (or unless) it is known. */
export function useOperator(): Operator {
  const [op, setOp] = useState<Operator>({ name: NEUTRAL_OPERATOR, contact: undefined });
  useEffect(() => {
    let live = true;
    getAppConfig()
      .then((c) => {
        if (live)
          setOp({ name: c.operatorName || NEUTRAL_OPERATOR, contact: c.operatorContact || undefined });
      })
      .catch(() => {
        /* keep the neutral wording */
      });
    return () => {
      live = false;
    };
  }, []);
  return op;
}

export function OperatorContact({ op }: { op: Operator }) {
  if (!op.contact) return <>the contact address published by {op.name}</>;
  const isMail = op.contact.includes('@') && !op.contact.includes('://');
  return (
    <a className="link" href={isMail ? `mailto:${op.contact}` : op.contact}>
      {op.contact}
    </a>
  );
}
