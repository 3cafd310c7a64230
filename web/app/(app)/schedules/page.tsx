import { Schedules } from '../../../components/Schedules';

export const metadata = { title: 'Schedules · Atelier' };

export default function SchedulesPage() {
  return <Schedules />;
}
