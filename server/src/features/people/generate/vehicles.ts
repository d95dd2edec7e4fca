/**
 * Vehicles: makes weighted roughly by US market share, models with the years they were sold, and VINs with the
 * make's real manufacturer identifiers (WMI), the model-year code in position 10 and a valid check digit.
 * Position 11 (plant) and 12-17 (serial) come from one shuffled numbered space, so every VIN is unique.
 */
import { modelYearCode, VIN_CHARACTERS, withCheckDigit } from '@tessera/common/vin';
import { AS_OF_YEAR } from './dates';
import { KeyedPermutation, UniqueSpace } from './permutation';
import type { Rng, SeedKey } from './prng';
import { Weighted } from './prng';

interface Make {
  name: string;
  wmis: readonly string[];
  /** Model name, first model year, last model year (0: still sold). */
  models: readonly (readonly [string, number, number])[];
}

// make | weight | manufacturer identifiers | model first[-last] year, ...
const DATA = `
Toyota|150|4T1 2T1 5TD 5TF JTD JTM|Camry 1983, Corolla 1968, RAV4 1996, Tacoma 1995, Highlander 2001, Tundra 2000, Prius 2001, 4Runner 1984, Sienna 1998
Ford|130|1FA 1FT 1FM 3FA 1FD|F-150 1975, Escape 2001, Explorer 1991, Focus 2000-2018, Fusion 2006-2020, Mustang 1965, Edge 2007-2024, Ranger 1983, Bronco 2021
Chevrolet|120|1G1 1GC 1GN 2G1 3GN 3GC|Silverado 1500 1999, Equinox 2005, Malibu 1997-2025, Tahoe 1995, Traverse 2009, Cruze 2011-2019, Camaro 1993-2024, Impala 2000-2020, Colorado 2004, Bolt EV 2017-2023
Honda|90|1HG 2HG 5FN 5J6 JHM|Accord 1976, Civic 1973, CR-V 1997, Pilot 2003, Odyssey 1995, HR-V 2016
Nissan|70|1N4 3N1 5N1 JN1 JN8|Altima 1993, Rogue 2008, Sentra 1982, Frontier 1998, Pathfinder 1987, Murano 2003, Versa 2007
Hyundai|50|5NP 5NM KMH KM8|Elantra 1992, Sonata 1989, Tucson 2005, Santa Fe 2001, Kona 2018
Kia|50|5XY 5XX KNA KND|Optima 2001-2020, Sorento 2003, Soul 2010, Forte 2010, Sportage 1995, Telluride 2020
Jeep|40|1C4 1J4 1J8|Wrangler 1987, Grand Cherokee 1993, Cherokee 2014-2023, Compass 2007, Gladiator 2020
Subaru|40|4S3 4S4 JF1 JF2|Outback 1995, Forester 1998, Impreza 1993, Crosstrek 2013, Ascent 2019
Ram|40|1C6 3C6|1500 2011, 2500 2011
GMC|40|1GT 1GK 2GK 3GT|Sierra 1500 1999, Acadia 2007, Terrain 2010, Yukon 1992
Dodge|30|2C3 2C4 1C3 1D7|Charger 2006, Challenger 2008-2023, Durango 1998, Grand Caravan 1987-2020
Tesla|20|5YJ 7SA|Model S 2012, Model 3 2017, Model X 2016, Model Y 2020
BMW|20|WBA WBS 5UX|3 Series 1975, 5 Series 1972, X3 2004, X5 2000
Mercedes-Benz|20|WDD WDC 4JG W1K W1N|C-Class 1994, E-Class 1994, GLC 2016, GLE 2016
Volkswagen|20|3VW 1VW WVW WVG|Jetta 1980, Passat 1990-2022, Tiguan 2009, Atlas 2018, Golf 1985-2021
Mazda|20|JM1 JM3 3MZ|Mazda3 2004, CX-5 2013, Mazda6 2003-2021, CX-9 2007-2023
Lexus|20|JTH 2T2 JTJ|RX 1999, ES 1990, NX 2015, IS 2001
Audi|10|WAU WA1|A4 1996, Q5 2009, A6 1995, Q7 2007
Buick|10|1G4 5GA KL4|Enclave 2008, Encore 2013, LaCrosse 2005-2019
Cadillac|10|1G6 1GY|Escalade 1999, XT5 2017, CTS 2003-2019
Chrysler|10|2C3 2C4|Pacifica 2017, 300 2005-2023
Volvo|10|YV1 YV4|XC90 2003, XC60 2010, S60 2001
Acura|10|19U 5J8 JH4|MDX 2001, RDX 2007, TLX 2015
Mitsubishi|10|JA4 ML3|Outlander 2003, Mirage 2014
Lincoln|10|5LM 1LN|Navigator 1998, Nautilus 2019, MKZ 2007-2020
`;

const MAKES = Weighted.of<Make>(
  DATA.trim()
    .split('\n')
    .map((line) => {
      const [name, weight, wmis, models] = line.split('|') as [string, string, string, string];
      const parsed = models.split(/\s*,\s*/).map((entry) => {
        const m = /^(.+) (\d{4})(?:-(\d{4}))?$/.exec(entry);
        if (!m) throw new Error(`Bad model entry "${entry}"`);
        return [m[1]!, Number(m[2]), Number(m[3] ?? 0)] as const;
      });
      return [{ name, wmis: wmis.split(' '), models: parsed }, Number(weight)] as const;
    }),
);

/** Every make's name and manufacturer identifiers, for tests. */
export const VEHICLE_MAKES: readonly { name: string; wmis: readonly string[] }[] = MAKES.items;

const OLDEST = 2000;
/** Next year's models are on sale by the as-of day (it is in the autumn). */
const NEWEST = AS_OF_YEAR + 1;

/** Serial space: plant code (any VIN character) × six-digit sequence number. */
const SERIALS = VIN_CHARACTERS.length * 1_000_000;
const RESERVED = 100_000;

export interface VehicleFacts {
  vin: string;
  year: number;
  make: string;
  model: string;
}

export class Vehicles {
  private readonly serials: UniqueSpace;

  constructor(seed: SeedKey) {
    this.serials = new UniqueSpace(new KeyedPermutation(SERIALS, seed.rng('vins').words()), RESERVED, 'VIN serials');
  }

  private build(rng: Rng, serial: number): VehicleFacts {
    const make = MAKES.pick(rng);
    const [model, from, to] = rng.pick(make.models);
    const first = Math.max(from, OLDEST);
    const last = Math.min(to || NEWEST, NEWEST);
    // newer cars are more common on the road: take the later of two tries half of the time
    let year = rng.between(first, last);
    if (rng.chance(0.5)) year = Math.max(year, rng.between(first, last));
    const body = Array.from({ length: 5 }, () => VIN_CHARACTERS[rng.below(VIN_CHARACTERS.length)]!);
    // 49 CFR 565: position 7 is a letter from model year 2010 on and a digit before
    body[3] = year >= 2010 ? 'ABCDEFGHJKLMNPRSTUVWXYZ'[rng.below(23)]! : String(rng.below(10));
    const plant = VIN_CHARACTERS[Math.floor(serial / 1_000_000)]!;
    const sequence = String(serial % 1_000_000).padStart(6, '0');
    const vin = withCheckDigit(`${rng.pick(make.wmis)}${body.join('')}0${modelYearCode(year)}${plant}${sequence}`);
    return { vin, year, make: make.name, model };
  }

  take(rng: Rng): VehicleFacts {
    return this.build(rng, this.serials.take());
  }

  /** A valid VIN nobody in the graph has. */
  absent(rng: Rng): VehicleFacts {
    return this.build(rng, this.serials.absent());
  }
}
