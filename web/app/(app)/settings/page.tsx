import { Settings } from '../../../components/Settings';

export const metadata = { title: 'Budget & autonomy · Atelier' };

export default function SettingsPage() {
  return <Settings />;
}
