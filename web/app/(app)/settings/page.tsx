import { AgentAccess } from '../../../components/AgentAccess';
import { McpServers } from '../../../components/McpServers';
import { Settings } from '../../../components/Settings';

export const metadata = { title: 'Settings · Atelier' };

export default function SettingsPage() {
  return (
    <>
      <Settings />
      <div className="page narrow">
        <McpServers />
        <AgentAccess />
      </div>
    </>
  );
}
