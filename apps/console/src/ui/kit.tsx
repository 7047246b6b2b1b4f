import { Fragment, type ComponentChildren } from 'preact';
import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { exportUrl, type ApiError } from '../api';
import { useAction } from './hooks';
import { language, t } from '../i18n';
import { BASE, linkHandler } from '../router';

export function Link(props: { to: string; children: ComponentChildren; class?: string; 'aria-current'?: 'page' }) {
  return (
    <a href={`${BASE}${props.to}`} onClick={linkHandler(props.to)} class={props.class} aria-current={props['aria-current']}>
      {props.children}
    </a>
  );
}

/**
 * "Download CSV": a link to a dashboard export (a plain download: the answer is an attachment, and
 * a file of any size streams to disk). "CSV" is a format's name, the same in every language.
 */
export function DownloadCsv(props: { file: Parameters<typeof exportUrl>[0]; query: Parameters<typeof exportUrl>[1] }) {
  return (
    <a class="download" href={exportUrl(props.file, props.query)} download>
      {t('export.download')} <span translate={false}>CSV</span>
    </a>
  );
}

/**
 * What an error means for the person, in their language: never the API's code alone. A field the
 * API named is called by its label; in English the API's own sentence follows (it says what is
 * wrong with a value); the request id is there for support. `retry` offers to try again (a read
 * that failed), `back` a way out (a page whose object is gone).
 */
export function describeError(error: ApiError): string {
  if (error.status === 0) return t('error.network');
  const known = t(`error.code.${error.code}`, {}, '');
  if (known) return known;
  if (error.status === 400 && error.param) return t('error.field', { field: t(`field.${error.param}`, {}, error.param) });
  if (error.status === 400) return t('error.invalid');
  if (error.status === 401) return t('error.signedOut');
  if (error.status === 403) return t('error.forbidden');
  if (error.status === 404) return t('error.notFound');
  if (error.status === 409) return t('error.conflict');
  if (error.status === 429) return t('error.rateLimited');
  return t('error.unavailable');
}

export function ErrorText(props: { error: ApiError | undefined; retry?: () => void; back?: { to: string; label: string } }) {
  const { error } = props;
  if (!error) return null;
  const detail = language() === 'en' && [400, 409, 422].includes(error.status) && error.message && error.code !== 'forbidden' ? error.message : undefined;
  return (
    <div class="error" role="alert">
      <p>
        {describeError(error)}
        {detail ? ` ${detail}` : null}
      </p>
      {error.requestId ? (
        <p class="hint">
          {t('error.reference')} <code translate={false}>{error.requestId}</code>
        </p>
      ) : null}
      {props.retry || props.back ? (
        <p class="actions">
          {props.retry ? (
            <button type="button" class="secondary" onClick={props.retry}>
              {t('common.retry')}
            </button>
          ) : null}
          {props.back ? <Link to={props.back.to}>← {props.back.label}</Link> : null}
        </p>
      ) : null}
    </div>
  );
}

/** A page whose object could not be read: the reason and the way back (or a retry when it may pass). */
export function PageError(props: { error: ApiError; retry: () => void; back: { to: string; label: string } }) {
  return (
    <>
      <h1>{props.error.status === 404 ? t('error.notFoundTitle') : t('error.title')}</h1>
      <ErrorText error={props.error} back={props.back} {...(props.error.status === 404 ? {} : { retry: props.retry })} />
    </>
  );
}

/** Any path that names no page: said plainly, with the way back. */
export function NotFoundPage() {
  return (
    <>
      <h1>{t('notFound.title')}</h1>
      <p>{t('notFound.body')}</p>
      <p>
        <Link to="/payments">← {t('notFound.back')}</Link>
      </p>
    </>
  );
}

export function Loading(props: { when: boolean }) {
  return props.when ? (
    <p class="muted" role="status">
      {t('common.loading')}
    </p>
  ) : null;
}

export function Status(props: { value: string }) {
  return <span class={`badge badge-${props.value.replace(/[^a-z_]/g, '')}`}>{t(`status.${props.value}`, {}, props.value)}</span>;
}

/** Where a payment's money went after it was paid (refunded, disputed …), in the merchant's words. */
export function MoneyStatus(props: { value: string }) {
  return <span class={`badge money-${props.value.replace(/[^a-z_]/g, '')}`}>{t(`money.${props.value}`, {}, props.value)}</span>;
}

/**
 * A long id or URL that may wrap only where it has a separator (after `/`, `.`, `?`, `&`, `=`,
 * `_` or `-`), never inside a word: on a phone it breaks between its parts.
 */
export function Breakable(props: { text: string; code?: boolean }) {
  const parts = props.text.split(/(?<=[/.?&=_-])/);
  const content = parts.map((part, index) => (
    <Fragment key={index}>
      {index > 0 ? <wbr /> : null}
      {part}
    </Fragment>
  ));
  return props.code ? <code translate={false}>{content}</code> : <span translate={false}>{content}</span>;
}

/** A key or secret of one long run of characters, in groups of eight that may wrap between them (copying takes it whole). */
export function Chunked(props: { text: string; class?: string }) {
  const groups = props.text.match(/.{1,8}/g) ?? [props.text];
  return (
    <code class={props.class} translate={false}>
      {groups.map((group, index) => (
        <Fragment key={index}>
          {index > 0 ? <wbr /> : null}
          {group}
        </Fragment>
      ))}
    </code>
  );
}

/** Label/value pairs of an object's detail page. */
export function Facts(props: { rows: readonly (readonly [string, ComponentChildren])[] }) {
  return (
    <dl class="facts">
      {props.rows.map(([label, value]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd>{value ?? '—'}</dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * A modal dialog on the browser's own `<dialog>`: focus moves in and is kept there, Escape closes,
 * and focus goes back to what opened it.
 */
export function Dialog(props: { title: string; open: boolean; onClose: () => void; children: ComponentChildren }) {
  const ref = useRef<HTMLDialogElement>(null);
  // Each dialog its own title id: several may sit closed in one page, and each is named by its own title.
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (props.open && !dialog.open) dialog.showModal();
    if (!props.open && dialog.open) dialog.close();
  }, [props.open]);
  return (
    <dialog ref={ref} aria-labelledby={titleId} onClose={props.onClose}>
      <h2 id={titleId}>{props.title}</h2>
      {props.open ? props.children : null}
    </dialog>
  );
}

/** Copies a secret shown once; says so for screen readers too. */
export function CopyButton(props: { text: string; label?: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    await navigator.clipboard.writeText(props.text);
    setCopied(true);
  };
  return (
    <button type="button" class="secondary" onClick={() => void copy()}>
      {copied ? t('common.copied') : (props.label ?? t('common.copy'))}
    </button>
  );
}

/** A secret the API shows this once: the value, a copy button and the warning. */
export function SecretOnce(props: { label: string; value: string }) {
  return (
    <div class="secret" role="region" aria-label={props.label}>
      <p>
        <strong>{props.label}</strong> — {t('common.shownOnce')}
      </p>
      <Chunked class="secret-value" text={props.value} /> <CopyButton text={props.value} />
    </div>
  );
}

/** Cursor pages: "newer" goes back through the cursors already seen, "older" starts after the last row. */
export function usePager(): { cursor: string | undefined; next: (lastId: string) => void; previous: () => void; reset: () => void; page: number } {
  const [cursors, setCursors] = useState<string[]>([]);
  return {
    cursor: cursors.at(-1),
    page: cursors.length + 1,
    next: (lastId) => setCursors((list) => [...list, lastId]),
    previous: () => setCursors((list) => list.slice(0, -1)),
    reset: () => setCursors([]),
  };
}

export function Pager(props: { pager: ReturnType<typeof usePager>; hasMore: boolean; lastId: string | undefined }) {
  const { pager } = props;
  if (pager.page === 1 && !props.hasMore) return null;
  return (
    <nav class="pager" aria-label={t('common.pages')}>
      <button type="button" class="secondary" disabled={pager.page === 1} onClick={pager.previous}>
        {t('common.newer')}
      </button>
      <span>{t('common.page', { n: pager.page })}</span>
      <button type="button" class="secondary" disabled={!props.hasMore || !props.lastId} onClick={() => props.lastId && pager.next(props.lastId)}>
        {t('common.older')}
      </button>
    </nav>
  );
}

/** A labelled form field; the label is tied to the control for screen readers and clicks. */
export function Field(props: { label: string; id: string; hint?: string; children: ComponentChildren }) {
  return (
    <div class="field">
      <label for={props.id}>{props.label}</label>
      {props.children}
      {props.hint ? (
        <p class="hint" id={`${props.id}-hint`}>
          {props.hint}
        </p>
      ) : null}
    </div>
  );
}

/** The foot of a dialog's form: cancel, and the submit button, disabled while its request runs. */
export function DialogActions(props: { onCancel: () => void; submitLabel: string; disabled: boolean; danger?: boolean }) {
  return (
    <div class="actions">
      <button type="button" class="secondary" onClick={props.onCancel}>
        {t('common.cancel')}
      </button>
      <button type="submit" class={props.danger ? 'danger' : undefined} disabled={props.disabled}>
        {props.submitLabel}
      </button>
    </div>
  );
}

/** "Are you sure?" for what cannot be undone (revoking a key, deleting an endpoint); the API's refusal stays shown. */
export function ConfirmDialog(props: {
  title: string;
  message: string;
  confirmLabel: string;
  open: boolean;
  onClose: () => void;
  onConfirm: () => Promise<void>;
}) {
  return (
    <Dialog title={props.title} open={props.open} onClose={props.onClose}>
      <ConfirmForm {...props} />
    </Dialog>
  );
}

function ConfirmForm(props: { message: string; confirmLabel: string; onClose: () => void; onConfirm: () => Promise<void> }) {
  const action = useAction();
  const submit = async (event: Event) => {
    event.preventDefault();
    if (await action.run(props.onConfirm)) props.onClose();
  };
  return (
    <form onSubmit={(event) => void submit(event)}>
      <p>{props.message}</p>
      <ErrorText error={action.error} />
      <DialogActions onCancel={props.onClose} submitLabel={props.confirmLabel} disabled={action.busy} danger />
    </form>
  );
}

/** One column of a DataTable: its header and how a row fills it. */
export interface Column<T> {
  readonly label: string;
  readonly cell: (row: T) => ComponentChildren;
  /** Amounts and counts: right-aligned, tabular figures. */
  readonly num?: boolean;
  /** Secondary: a narrower column on a wide screen (shown on a phone's card like every other). */
  readonly wide?: boolean;
}

/**
 * A list of objects as a table, or `empty` when there are none, or nothing while it loads. Every
 * list of the console is drawn by this, so headers, alignment and the phone layout agree: below
 * 720 px each row becomes a card, each cell under its column's name (`data-label`). The explicit
 * roles keep it a table for screen readers when the layout no longer is one.
 */
export function DataTable<T>(props: {
  rows: readonly T[] | undefined;
  columns: readonly Column<T>[];
  rowKey: (row: T) => string;
  empty: string;
  caption?: string;
}) {
  if (!props.rows) return null;
  if (props.rows.length === 0) return <p class="muted">{props.empty}</p>;
  const classOf = (column: Column<T>) => [column.num ? 'num' : '', column.wide ? 'wide' : ''].filter(Boolean).join(' ') || undefined;
  return (
    <table class="cards" role="table">
      {props.caption ? <caption class="visually-hidden">{props.caption}</caption> : null}
      <thead role="rowgroup">
        <tr role="row">
          {props.columns.map((column) => (
            <th scope="col" role="columnheader" key={column.label} class={classOf(column)}>
              {column.label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody role="rowgroup">
        {props.rows.map((row) => (
          <tr role="row" key={props.rowKey(row)}>
            {props.columns.map((column) => (
              <td role="cell" key={column.label} class={classOf(column)} data-label={column.label}>
                {column.cell(row)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** A filter of a list by one of a few values ("Any" first); changing it goes back to the first page. */
export function SelectFilter(props: {
  id: string;
  label: string;
  value: string;
  options: readonly string[];
  optionLabel: (value: string) => string;
  onChange: (value: string) => void;
}) {
  return (
    <Field label={props.label} id={props.id}>
      <select id={props.id} value={props.value} onChange={(e) => props.onChange(e.currentTarget.value)}>
        <option value="">{t('common.any')}</option>
        {props.options.map((value) => (
          <option key={value} value={value}>
            {props.optionLabel(value)}
          </option>
        ))}
      </select>
    </Field>
  );
}

/** The six digits of an authenticator app (sign-in, the claim, step-up), with its hint tied to it. */
export function CodeField(props: { id: string; label: string; hint: string; value: string; onInput: (code: string) => void }) {
  return (
    <Field label={props.label} id={props.id} hint={props.hint}>
      <input
        id={props.id}
        inputMode="numeric"
        autocomplete="one-time-code"
        pattern="[0-9]{6}"
        required
        aria-describedby={`${props.id}-hint`}
        value={props.value}
        onInput={(e) => props.onInput(e.currentTarget.value.trim())}
      />
    </Field>
  );
}
