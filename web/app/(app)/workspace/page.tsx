import { Workspace } from '../../../components/Workspace';

export const metadata = { title: 'Workspace · Atelier' };

export default function WorkspacePage() {
  return <Workspace />;
}
