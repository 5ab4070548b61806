import type { InAppBrowser } from '@guquan/contract/client-info';
import { OpenInBrowserGuide } from '../../../components/open-in-browser-guide/open-in-browser-guide';
import { fill } from '../texts/share-texts';
import type { ShareGuideTexts } from '../texts/text-shapes';

export interface ShareGuideProps {
  open: boolean;
  onClose: () => void;
  /** Told when the link reached the clipboard (the share funnel counts it). */
  onCopied?: () => void;
  /** The browser the page is in: its name goes into the guide's hint ("微信内无法…"). */
  inAppBrowser: InAppBrowser;
}

/** The open-in-browser guide with the share pages' texts in one language, its hint filled in. */
export function ShareGuide({
  texts,
  inAppBrowser,
  ...props
}: ShareGuideProps & { texts: ShareGuideTexts }) {
  return (
    <OpenInBrowserGuide
      {...props}
      texts={{
        ...texts.guide,
        hint: fill(texts.guide.hint, {
          app: inAppBrowser === 'none' ? '' : texts.inAppNames[inAppBrowser],
        }),
      }}
    />
  );
}
