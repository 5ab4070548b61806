import { useState } from 'react';
import { OpenInBrowserGuide } from '../../components/open-in-browser-guide/open-in-browser-guide-on-demand';
import { needsBrowserForStores } from '../../lib/client/app-opening';
import { useClientInfo } from '../../lib/client/client-info-context';
import { useLanguage } from '../../lib/i18n/language-context';
import { DownloadSection } from './download-section';
import { FeaturesSection } from './features-section';
import { HeroSection } from './hero-section';
import { ScreensSection } from './screens-section';
import { SiteFooter } from './site-footer';
import { SiteHeader } from './site-header';
import { websiteTexts, withAppName } from './website-content';
import styles from './website-page.module.css';

/** The official website (PRODUCT.md "Official website"): every text comes from content/website.json. */
export function WebsitePage() {
  const language = useLanguage();
  const client = useClientInfo();
  const { inAppBrowser } = client;
  const text = websiteTexts(language);
  const [guideOpen, setGuideOpen] = useState(false);
  const openGuide = () => {
    setGuideOpen(true);
  };
  return (
    <div className={styles.page}>
      <SiteHeader text={text.header} />
      <main>
        <HeroSection text={text.hero} stores={text.download} onNeedBrowser={openGuide} />
        <FeaturesSection text={text.features} />
        <ScreensSection text={text.screens} />
        <DownloadSection text={text.download} onNeedBrowser={openGuide} />
      </main>
      <SiteFooter text={text.footer} brand={text.header.brand} language={language} />
      {needsBrowserForStores(client) ? (
        <OpenInBrowserGuide
          open={guideOpen}
          onClose={() => {
            setGuideOpen(false);
          }}
          texts={{
            ...text.guide,
            hint: withAppName(text.guide.hint, inAppBrowser, text.download.inAppNames),
          }}
        />
      ) : null}
    </div>
  );
}
