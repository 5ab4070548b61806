import { NotFoundView } from '../../components/not-found-view/not-found-view';

/** Any path under the base path that no route names; the server answers it with 404. */
export function Component() {
  return <NotFoundView />;
}
