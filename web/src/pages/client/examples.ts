/**
 * Each client's first example, as the file its own test suite runs (clients/{language}/examples): the page shows
 * that file, so what a reader copies is what was tested.
 */
import type { ClientLanguage } from '@tessera/common/client-packages';
import java from '../../../../clients/java/examples/FirstCall.java?raw';
import js from '../../../../clients/js/examples/first-call.mjs?raw';
import python from '../../../../clients/python/examples/first_call.py?raw';

export const FIRST_EXAMPLE: Record<ClientLanguage, string> = { js, python, java };
