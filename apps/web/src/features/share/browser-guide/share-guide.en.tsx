import { ShareGuide, type ShareGuideProps } from './share-guide';
import { englishShareGuideTexts } from '../texts/share-guide-texts.en';

/** The share pages' guide in English: its code and texts, one chunk loaded on the first open. */
export function EnglishShareGuide(props: ShareGuideProps) {
  return <ShareGuide {...props} texts={englishShareGuideTexts} />;
}
