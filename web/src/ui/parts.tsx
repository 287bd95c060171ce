import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { strings } from './strings';

/** `3 h ago`, with the exact time in the title and for screen readers. */
export function TimeAgo(props: { at: string | null; never?: string }) {
  if (props.at === null) return <span>{props.never ?? strings.never}</span>;
  const at = new Date(props.at);
  const exact = at.toLocaleString();
  return (
    <time dateTime={props.at} title={exact} tabIndex={0}>
      {ago(at.getTime(), Date.now())}
    </time>
  );
}

export function ago(then: number, now: number): string {
  const seconds = Math.round((now - then) / 1000);
  const future = seconds < 0;
  const s = Math.abs(seconds);
  if (s < 60) return strings.justNow;
  const { units } = strings;
  const [value, unit] =
    s < 3600
      ? [Math.floor(s / 60), units.min]
      : s < 86_400
        ? [Math.floor(s / 3600), units.h]
        : [Math.floor(s / 86_400), s < 172_800 ? units.day : units.days];
  return future ? strings.in(value, unit) : strings.ago(value, unit);
}

export type Tone = 'ok' | 'warn' | 'bad' | 'off' | 'info';

const TONE_ICON: Record<Tone, string> = { ok: '●', warn: '▲', bad: '■', off: '○', info: '◆' };

/** A status chip: colour and a shape and the word, so colour is never the only carrier. */
export function Chip(props: { tone: Tone; children: ComponentChildren }) {
  return (
    <span class={`chip chip-${props.tone}`}>
      <span aria-hidden="true">{TONE_ICON[props.tone]}</span> {props.children}
    </span>
  );
}

/**
 * A secret shown once (a new key, a token, a sign-in link): selectable, with a
 * copy button, and the warning that it will not be shown again.
 */
export function SecretBox(props: {
  label: string;
  value: string;
  warning: string;
  onDone: () => void;
}) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(props.value);
      setCopied(true);
    } catch {
      // No clipboard on a plain-http address: the text is selectable instead.
      setCopied(false);
    }
  };
  return (
    <section class="secret" aria-label={props.label}>
      <h3>{props.label}</h3>
      <p class="secret-warning">{props.warning}</p>
      <output class="secret-value" tabIndex={0}>
        {props.value}
      </output>
      <div class="actions">
        <button type="button" class="button" onClick={() => void copy()}>
          {copied ? strings.copied : strings.copy}
        </button>
        <button type="button" class="button button-quiet" onClick={props.onDone}>
          {strings.done}
        </button>
      </div>
    </section>
  );
}

/** What a form needs only sometimes, behind "More" (`open` when an error there must show). */
export function More(props: { label?: string; open?: boolean; children: ComponentChildren }) {
  return (
    <details class="more" open={props.open === true ? true : undefined}>
      <summary>{props.label ?? strings.more}</summary>
      {props.children}
    </details>
  );
}

/** A screen's heading and what it is for. */
export function ScreenHeader(props: {
  title: string;
  lead?: string;
  children?: ComponentChildren;
}) {
  return (
    <header class="screen-header">
      <div>
        <h1>{props.title}</h1>
        {props.lead && <p class="lead">{props.lead}</p>}
      </div>
      {props.children}
    </header>
  );
}

export function Notice(props: { children: ComponentChildren; tone?: 'info' | 'bad' }) {
  return (
    <p
      class={`notice notice-${props.tone ?? 'info'}`}
      role={props.tone === 'bad' ? 'alert' : undefined}
    >
      {props.children}
    </p>
  );
}

/** One fact of a `<dl class="facts">`: its term, then what it is. */
export function Fact(props: { term: string; class?: string; children: ComponentChildren }) {
  return (
    <>
      <dt>{props.term}</dt>
      <dd class={props.class}>{props.children}</dd>
    </>
  );
}

/** One fact of a `<dl class="facts facts-grid">`, kept together as one cell of the grid. */
export function GridFact(props: { term: string; children: ComponentChildren }) {
  return (
    <div>
      <dt>{props.term}</dt>
      <dd>{props.children}</dd>
    </div>
  );
}
