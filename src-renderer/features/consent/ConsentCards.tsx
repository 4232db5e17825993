import './consent.css';
import { ConsentCard } from './ConsentCard';
import { useConsentPrompts } from './useConsentPrompts';

/** The session's open consent prompts, at the top of its cards where they cannot be missed. */
export function ConsentCards({ sessionId, open }: { sessionId: string; open: boolean }) {
  const prompts = useConsentPrompts(sessionId, open);
  if (prompts.length === 0) return null;
  return (
    <div className="consent-cards" aria-live="assertive">
      {prompts.map((prompt) => (
        <ConsentCard key={prompt.id} prompt={prompt} />
      ))}
    </div>
  );
}
