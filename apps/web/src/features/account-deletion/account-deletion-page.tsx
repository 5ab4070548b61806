import { useCallback, useEffect, useId, useRef, useState, type SyntheticEvent } from 'react';
import {
  DELETION_COOL_OFF_DAYS,
  type DeletionOverview,
  type DeletionRequest,
} from '@guquan/contract/account-deletion';
import type { Language } from '@guquan/contract/language';
import buttons from '../../components/button.module.css';
import { PageColumn } from '../../components/page-column/page-column';
import { StatusView } from '../../components/status-view/status-view';
import { connectBridge } from '../../lib/bridge/connect-bridge';
import type { Bridge } from '../../lib/bridge/native-bridge';
import { keepFocusInside } from '../../lib/dom/keep-focus-inside';
import { useLanguage } from '../../lib/i18n/language-context';
import { deletionApi, type ApiResult } from './deletion-api';
import { deletionTexts, formatDate, formatDateTime } from './deletion-texts';
import styles from './account-deletion-page.module.css';

type Phase =
  | { kind: 'loading' }
  | { kind: 'no_app' }
  | { kind: 'logged_out' }
  | { kind: 'network' }
  | { kind: 'ready'; overview: DeletionOverview; token: string };

type Texts = (typeof deletionTexts)[Language];

/**
 * The account deletion page (PRODUCT.md "Delete account"). The server renders only its skeleton:
 * the user, their token and their data exist in the browser only, from the bridge and the API.
 */
export function AccountDeletionPage({ title }: { title: string }) {
  const language = useLanguage();
  const t = deletionTexts[language];
  const [phase, setPhase] = useState<Phase>({ kind: 'loading' });
  const bridgeRef = useRef<Bridge | undefined>(undefined);
  const tokenRef = useRef<string | undefined>(undefined);

  const loadOverview = useCallback(async () => {
    const token = tokenRef.current;
    if (!token) {
      setPhase({ kind: 'logged_out' });
      return;
    }
    const result = await deletionApi.overview(token);
    if (result.ok) setPhase({ kind: 'ready', overview: result.value, token });
    else setPhase({ kind: result.kind === 'unauthorized' ? 'logged_out' : 'network' });
  }, []);

  const start = useCallback(async () => {
    let bridge: Bridge;
    try {
      bridge = await connectBridge();
    } catch {
      setPhase({ kind: 'network' });
      return;
    }
    bridgeRef.current = bridge;
    if (bridge.transport() === 'none') {
      setPhase({ kind: 'no_app' });
      return;
    }
    try {
      const session = await bridge.call('getSession', {});
      tokenRef.current = session?.token;
    } catch {
      setPhase({ kind: 'network' });
      return;
    }
    await loadOverview();
  }, [loadOverview]);

  useEffect(() => {
    // Browser only: the server renders the skeleton, and nothing of the user.
    void Promise.resolve().then(start);
  }, [start]);

  const login = async () => {
    const bridge = bridgeRef.current;
    if (!bridge) return;
    try {
      const session = await bridge.call('login', {});
      if (!session) return;
      tokenRef.current = session.token;
    } catch {
      return;
    }
    setPhase({ kind: 'loading' });
    await loadOverview();
  };

  /** The session ended on the server (another device, a log-out): ask to log in again. */
  const onUnauthorized = () => {
    tokenRef.current = undefined;
    setPhase({ kind: 'logged_out' });
  };

  let body;
  switch (phase.kind) {
    case 'loading':
      body = <Skeleton title={title} label={t.loading} />;
      break;
    case 'no_app':
      body = <StatusView emblem="!" heading={t.noAppHeading} body={t.noAppBody} />;
      break;
    case 'logged_out':
      body = (
        <StatusView
          emblem="?"
          heading={t.loggedOutHeading}
          body={t.loggedOutBody}
          action={
            <button type="button" className={buttons.primary} onClick={() => void login()}>
              {t.login}
            </button>
          }
        />
      );
      break;
    case 'network':
      body = (
        <StatusView
          emblem="!"
          heading={t.networkHeading}
          body={t.networkBody}
          action={
            <button
              type="button"
              className={buttons.primary}
              onClick={() => {
                setPhase({ kind: 'loading' });
                void start();
              }}
            >
              {t.retry}
            </button>
          }
        />
      );
      break;
    case 'ready':
      body = (
        <Overview
          title={title}
          t={t}
          language={language}
          overview={phase.overview}
          token={phase.token}
          onChange={(overview) => {
            setPhase({ kind: 'ready', overview, token: phase.token });
          }}
          onRequested={(request) => {
            // The app logs out and leaves the page; if it keeps it, the cancel button stays.
            bridgeRef.current
              ?.call('accountDeleted', { deletesAt: request.deletesAt })
              .catch(() => undefined);
          }}
          onUnauthorized={onUnauthorized}
          reload={() => void loadOverview()}
        />
      );
      break;
  }
  return <PageColumn>{body}</PageColumn>;
}

function Skeleton({ title, label }: { title: string; label: string }) {
  return (
    <div className={styles.page} aria-busy="true">
      <h1 className={styles.title}>{title}</h1>
      <p className={styles.visuallyHidden} role="status">
        {label}
      </p>
      {[0, 1, 2].map((index) => (
        <div key={index} className={styles.skeletonCard} />
      ))}
    </div>
  );
}

interface OverviewProps {
  title: string;
  t: Texts;
  language: Language;
  overview: DeletionOverview;
  token: string;
  onChange: (overview: DeletionOverview) => void;
  onRequested: (request: DeletionRequest) => void;
  onUnauthorized: () => void;
  reload: () => void;
}

function Overview(props: OverviewProps) {
  const { t, language, overview } = props;
  const [cancelled, setCancelled] = useState(false);
  const [cancelError, setCancelError] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const { content, losses, request, blockers } = overview;

  const cancel = async () => {
    setBusy(true);
    const result = await deletionApi.cancel(props.token);
    setBusy(false);
    if (result.ok) {
      setCancelled(true);
      setCancelError(undefined);
      props.onChange({ ...overview, request: null });
    } else if (result.kind === 'unauthorized') props.onUnauthorized();
    else setCancelError(t.requestFailed);
  };

  return (
    <div className={styles.page}>
      <h1 className={styles.title}>{props.title}</h1>
      {request ? (
        <section className={styles.coolOff} aria-labelledby="cool-off-heading">
          <h2 id="cool-off-heading" className={styles.sectionTitle}>
            {t.coolOffHeading}
          </h2>
          <p className={styles.coolOffDate}>
            {t.coolOffBody(formatDateTime(request.deletesAt, language))}
          </p>
          <p className={styles.note}>{t.coolOffLogin}</p>
          {cancelError ? (
            <p role="alert" className={styles.error}>
              {cancelError}
            </p>
          ) : null}
          <button
            type="button"
            className={buttons.primary}
            disabled={busy}
            onClick={() => void cancel()}
          >
            {t.cancelRequest}
          </button>
        </section>
      ) : (
        <p className={styles.intro}>{t.intro}</p>
      )}
      {cancelled && !request ? (
        <p role="status" className={styles.success}>
          {t.cancelled}
        </p>
      ) : null}

      <section className={styles.card} aria-labelledby="deleted-heading">
        <h2 id="deleted-heading" className={styles.sectionTitle}>
          {t.deletedHeading}
        </h2>
        <ul className={styles.list}>
          {t.deletedItems(content).map((line) => (
            <li key={line}>{line}</li>
          ))}
          <li>{t.deletedProfile}</li>
        </ul>
      </section>

      <section className={styles.card} aria-labelledby="lost-heading">
        <h2 id="lost-heading" className={styles.sectionTitle}>
          {t.lostHeading}
        </h2>
        <ul className={styles.list}>
          <li>{t.lostPoints(losses.points)}</li>
          <li>{t.lostDesigns(losses.designs)}</li>
          <li>
            {t.lostMembership(
              losses.membershipUntil === null ? null : formatDate(losses.membershipUntil, language),
            )}
          </li>
        </ul>
        <p className={styles.warning}>{t.subscriptionWarning}</p>
      </section>

      <section className={styles.card} aria-labelledby="kept-heading">
        <h2 id="kept-heading" className={styles.sectionTitle}>
          {t.keptHeading}
        </h2>
        <ul className={styles.list}>
          {overview.retained.map((entry) => (
            <li key={entry.kind}>{t.kept[entry.kind](entry.months)}</li>
          ))}
        </ul>
      </section>

      {request ? null : blockers.length > 0 ? (
        <section className={styles.blocked} aria-labelledby="blocked-heading">
          <h2 id="blocked-heading" className={styles.sectionTitle}>
            {t.blockedHeading}
          </h2>
          <p className={styles.note}>{t.blockedIntro}</p>
          <ul className={styles.blockers}>
            {blockers.map((blocker) => (
              <li key={`${blocker.kind}-${blocker.since}`} className={styles.blocker}>
                <p className={styles.blockerLabel}>
                  {t.blocker[blocker.kind].label}
                  <span className={styles.blockerSince}>
                    {' · '}
                    {t.since(formatDate(blocker.since, language))}
                  </span>
                </p>
                <p className={styles.blockerTitle}>{blocker.title}</p>
                <p className={styles.note}>{t.blocker[blocker.kind].resolve}</p>
              </li>
            ))}
          </ul>
        </section>
      ) : overview.maskedPhone === null ? (
        <p className={styles.error} role="alert">
          {t.noPhone}
        </p>
      ) : (
        <VerifyForm {...props} maskedPhone={overview.maskedPhone} />
      )}
    </div>
  );
}

function VerifyForm(props: OverviewProps & { maskedPhone: string }) {
  const {
    t,
    language,
    overview,
    token,
    maskedPhone,
    onChange,
    onRequested,
    onUnauthorized,
    reload,
  } = props;
  const [code, setCode] = useState('');
  const [agreed, setAgreed] = useState(false);
  const [sentTo, setSentTo] = useState<string | undefined>(undefined);
  const [resendAt, setResendAt] = useState(0);
  const [now, setNow] = useState(() => Date.now());
  const [error, setError] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const [dialogOpen, setDialogOpen] = useState(false);
  const submitRef = useRef<HTMLButtonElement>(null);
  const ids = useId();

  const waitSeconds = Math.max(0, Math.ceil((resendAt - now) / 1000));
  useEffect(() => {
    if (resendAt <= Date.now()) return undefined;
    const timer = setInterval(() => {
      setNow(Date.now());
    }, 1000);
    return () => {
      clearInterval(timer);
    };
  }, [resendAt]);

  const failed = (result: Exclude<ApiResult<unknown>, { ok: true }>) => {
    if (result.kind === 'unauthorized') {
      onUnauthorized();
      return;
    }
    if (result.kind === 'network') {
      setError(t.requestFailed);
      return;
    }
    const { code: errorCode, retryAfterSeconds, attemptsLeft } = result.error;
    if (errorCode === 'sms_rate_limited' && retryAfterSeconds !== undefined) {
      setResendAt(Date.now() + retryAfterSeconds * 1000);
      setNow(Date.now());
      setError(t.rateLimited(retryAfterSeconds));
    } else if (errorCode === 'code_wrong' && attemptsLeft !== undefined) {
      setError(t.wrongCode(attemptsLeft));
    } else if (errorCode === 'deletion_blocked' || errorCode === 'deletion_pending') {
      reload();
    } else {
      setError(t.errors[errorCode] ?? t.requestFailed);
    }
  };

  const sendCode = async () => {
    setBusy(true);
    setError(undefined);
    const result = await deletionApi.sendCode(token);
    setBusy(false);
    if (result.ok) {
      setSentTo(result.value.maskedPhone);
      setResendAt(Date.now() + result.value.resendAfterSeconds * 1000);
      setNow(Date.now());
    } else failed(result);
  };

  const confirm = async () => {
    setBusy(true);
    setError(undefined);
    const result = await deletionApi.confirm(token, code);
    setBusy(false);
    setDialogOpen(false);
    if (result.ok) {
      onChange({ ...overview, request: result.value });
      onRequested(result.value);
    } else {
      failed(result);
      submitRef.current?.focus();
    }
  };

  const onSubmit = (event: SyntheticEvent) => {
    event.preventDefault();
    if (/^\d{6}$/.test(code) && agreed) setDialogOpen(true);
  };

  const codeReady = /^\d{6}$/.test(code);
  const deletesAtPreview = new Date(now + DELETION_COOL_OFF_DAYS * 24 * 60 * 60 * 1000);

  return (
    <section className={styles.card} aria-labelledby={`${ids}-verify`}>
      <h2 id={`${ids}-verify`} className={styles.sectionTitle}>
        {t.verifyHeading}
      </h2>
      <form onSubmit={onSubmit} noValidate>
        <p className={styles.note} role="status">
          {sentTo ? t.codeSent(sentTo) : t.sendTo(maskedPhone)}
        </p>
        <div className={styles.codeRow}>
          <label htmlFor={`${ids}-code`} className={styles.visuallyHidden}>
            {t.codeLabel}
          </label>
          <input
            id={`${ids}-code`}
            className={styles.codeInput}
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="[0-9]*"
            maxLength={6}
            placeholder={t.codeLabel}
            value={code}
            aria-invalid={error !== undefined}
            aria-describedby={error ? `${ids}-error` : undefined}
            onChange={(event) => {
              setCode(event.target.value.replace(/\D/g, '').slice(0, 6));
            }}
          />
          <button
            type="button"
            className={styles.sendButton}
            disabled={busy || waitSeconds > 0}
            onClick={() => void sendCode()}
          >
            {waitSeconds > 0 ? t.resendIn(waitSeconds) : t.sendCode}
          </button>
        </div>
        {error ? (
          <p id={`${ids}-error`} role="alert" className={styles.error}>
            {error}
          </p>
        ) : null}
        <label className={styles.agree}>
          <input
            type="checkbox"
            checked={agreed}
            onChange={(event) => {
              setAgreed(event.target.checked);
            }}
          />
          <span>{t.understand(DELETION_COOL_OFF_DAYS)}</span>
        </label>
        <button
          ref={submitRef}
          type="submit"
          className={`${buttons.primary} ${styles.submit}`}
          disabled={!codeReady || !agreed || busy}
        >
          {t.submit}
        </button>
      </form>
      {dialogOpen ? (
        <ConfirmDialog
          t={t}
          date={formatDate(deletesAtPreview.toISOString(), language)}
          busy={busy}
          onConfirm={() => void confirm()}
          onClose={() => {
            setDialogOpen(false);
            submitRef.current?.focus();
          }}
        />
      ) : null}
    </section>
  );
}

function ConfirmDialog({
  t,
  date,
  busy,
  onConfirm,
  onClose,
}: {
  t: Texts;
  date: string;
  busy: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const backRef = useRef<HTMLButtonElement>(null);
  const ids = useId();
  useEffect(() => {
    // The safe choice has the focus first.
    backRef.current?.focus();
  }, []);
  return (
    <div className={styles.backdrop}>
      <div
        role="alertdialog"
        aria-modal="true"
        aria-labelledby={`${ids}-title`}
        aria-describedby={`${ids}-body`}
        className={styles.dialog}
        onKeyDown={(event) => {
          if (event.key === 'Escape') onClose();
          else keepFocusInside(event);
        }}
      >
        <h2 id={`${ids}-title`} className={styles.sectionTitle}>
          {t.dialogHeading}
        </h2>
        <p id={`${ids}-body`} className={styles.note}>
          {t.dialogBody(date)}
        </p>
        <div className={styles.dialogActions}>
          <button ref={backRef} type="button" className={styles.secondary} onClick={onClose}>
            {t.dialogBack}
          </button>
          <button type="button" className={styles.danger} disabled={busy} onClick={onConfirm}>
            {t.dialogConfirm}
          </button>
        </div>
      </div>
    </div>
  );
}
