import { Alert, Container, Title } from '@mantine/core';
import { ROLE } from '../../../shared/constants';
import { useSession } from '../../api/session';
import { usePageTitle } from '../../components/usePageTitle';
import { CompanyCard } from './CompanyCard';
import { EvidenceCard } from './EvidenceCard';

/** Settings (/settings, Admin; decision 047): the company's time zone and its evidence rules. */
export default function SettingsPage() {
  usePageTitle('Settings');
  const { claims } = useSession();
  return (
    <Container size="sm" py="md">
      <Title order={1} size="h2">
        Settings
      </Title>
      {claims?.roleId === ROLE.ADMIN ? (
        <>
          <CompanyCard />
          <EvidenceCard />
        </>
      ) : (
        <Alert color="yellow" mt="md">
          Only an Admin can change the company's settings.
        </Alert>
      )}
    </Container>
  );
}
