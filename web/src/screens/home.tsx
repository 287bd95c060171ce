import { useSignedIn } from '../session';
import { ScreenHeader } from '../ui/parts';
import { useTitle } from '../ui/title';

const strings = {
  title: 'Home',
  hello: (name: string) => `Hello, ${name}`,
  lead: (role: string, workspace: string) => `You are signed in as ${role} of ${workspace}.`,
  scanTitle: 'Find a culture',
  scan: 'Scan a label, or type its code, in the search field at the top. Its record opens.',
  adminTitle: 'Your lab’s people and devices',
  admin: [
    ['/members', 'Members', 'Add people, change roles, and make sign-in links to hand over.'],
    ['/api-keys', 'API keys', 'Keys for scripts, label printers and sync tools.'],
    ['/devices', 'Devices', 'Sensors and controllers: pause or retire them, manage their tokens.'],
  ],
  comingTitle: 'Coming to the console',
  coming:
    'Today’s work, plants and explants, transfers, contaminations, tasks and SOPs. Until then, ' +
    'scripts and apps reach them through the API.',
  docs: 'API reference',
} as const;

/** The first screen after signing in: who you are, and where to go. */
export default function Home() {
  useTitle(strings.title);
  const { session, atLeast } = useSignedIn();
  return (
    <>
      <ScreenHeader
        title={strings.hello(session.member.name)}
        lead={strings.lead(session.member.role, session.workspace.name)}
      />
      <section class="panel">
        <h2>{strings.scanTitle}</h2>
        <p>{strings.scan}</p>
      </section>
      {atLeast('admin') && (
        <section class="panel">
          <h2>{strings.adminTitle}</h2>
          <ul class="link-list">
            {strings.admin.map(([href, label, text]) => (
              <li key={href}>
                <a href={href}>{label}</a>
                <span class="muted"> — {text}</span>
              </li>
            ))}
          </ul>
        </section>
      )}
      <section class="panel">
        <h2>{strings.comingTitle}</h2>
        <p>{strings.coming}</p>
        <p>
          <a href="/docs" target="_blank" rel="noopener">
            {strings.docs}
          </a>
        </p>
      </section>
    </>
  );
}
