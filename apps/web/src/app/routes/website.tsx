import { WebsitePage } from '../../features/website/website-page';

export function Component() {
  return <WebsitePage />;
}
