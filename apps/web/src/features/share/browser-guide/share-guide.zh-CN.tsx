import { ShareGuide, type ShareGuideProps } from './share-guide';
import { chineseShareGuideTexts } from '../texts/share-guide-texts.zh-CN';

/** The share pages' guide in Chinese: its code and texts, one chunk loaded on the first open. */
export function ChineseShareGuide(props: ShareGuideProps) {
  return <ShareGuide {...props} texts={chineseShareGuideTexts} />;
}
