/**
 * The events an endpoint takes, one checkbox each with what it carries (WEBHOOK_EVENT_DESCRIPTIONS), held in the
 * form as a comma-separated value and checked like any field: at least one, with the server's message. Its error,
 * the editor's or the server's (`body.events`), shows under the group.
 */
import Checkbox from '@mui/material/Checkbox';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import Typography from '@mui/material/Typography';
import {
  WEBHOOK_EVENT_DESCRIPTIONS,
  WEBHOOK_MESSAGES,
  WEBHOOK_SUBSCRIBABLE_EVENTS,
  WEBHOOK_TEST_EVENT,
} from '@tessera/common/webhooks';
import { useField } from '../../forms/form-context';

export const splitEvents = (value: string) => value.split(',').filter((e) => e !== '');

const checkEvents = (value: string) => (splitEvents(value).length === 0 ? WEBHOOK_MESSAGES.events : undefined);

export function EventsInput({ name = 'events' }: { name?: string }) {
  const form = useField(name, { label: 'Events', check: checkEvents });
  const chosen = splitEvents(form.values[name] ?? '');
  const error = form.errors[name];
  const helperId = `${form.inputId(name)}-helper`;
  const set = (event: string, on: boolean) => {
    const next = on ? [...chosen, event] : chosen.filter((e) => e !== event);
    // In the order the list gives, whatever the order of the clicks.
    form.setValue(name, WEBHOOK_SUBSCRIBABLE_EVENTS.filter((e) => next.includes(e)).join(','));
    form.blur(name);
  };
  return (
    <FormControl component="fieldset" variant="standard" error={error !== undefined}>
      <FormLabel component="legend">Events</FormLabel>
      <FormGroup>
        {WEBHOOK_SUBSCRIBABLE_EVENTS.map((event, index) => (
          <FormControlLabel
            key={event}
            sx={{ alignItems: 'flex-start', mt: 0.5 }}
            control={
              <Checkbox
                // The first box takes the field's id: the banner's link to the field focuses it.
                id={index === 0 ? form.inputId(name) : undefined}
                name={name}
                value={event}
                checked={chosen.includes(event)}
                onChange={(e) => set(event, e.target.checked)}
                slotProps={{ input: { 'aria-describedby': helperId } }}
                sx={{ pt: 0.5 }}
              />
            }
            label={
              <>
                <Typography component="span" sx={{ fontFamily: 'monospace', display: 'block' }}>
                  {event}
                </Typography>
                <Typography component="span" variant="body2" color="text.secondary" sx={{ display: 'block' }}>
                  {WEBHOOK_EVENT_DESCRIPTIONS[event]}
                </Typography>
              </>
            }
          />
        ))}
      </FormGroup>
      <FormHelperText id={helperId}>
        {error ?? `A test event (${WEBHOOK_TEST_EVENT}) is sent when you ask for one, whatever is chosen here.`}
      </FormHelperText>
    </FormControl>
  );
}
