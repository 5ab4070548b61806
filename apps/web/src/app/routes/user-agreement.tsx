import { UnderConstruction } from '../../components/under-construction/under-construction';

export function Component() {
  return <UnderConstruction />;
}
