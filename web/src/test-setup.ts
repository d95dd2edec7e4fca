/**
 * The web suite's set-up: Testing Library's findBy/waitFor wait up to 10 s (its default is 1 s). A lazily loaded
 * chunk or a debounced fetch takes longer than that on a machine whose two cores run the other test groups too;
 * they resolve as soon as what they wait for appears, so a quiet machine waits no longer than before.
 */
import { configure } from '@testing-library/react';

configure({ asyncUtilTimeout: 10_000 });
