import { Memory } from '../../../components/Memory';

export const metadata = { title: 'Memory · Atelier' };

export default function MemoryPage() {
  return <Memory />;
}
