/** The share pages' counts are the site's one count formatter (lib/format/counts.ts). */
export { formatCount } from '../../../lib/format/counts';
