/**
 * Employers: made-up company names (a place-like word and an industry), a domain derived from the name, and job
 * titles that fit the industry. No real company is named.
 */
import { type Rng, Weighted } from './prng';

const WORDS = `
  Summit, Blue Ridge, Pioneer, Cascade, Redwood, Harbor, Keystone, Liberty, Northstar, Evergreen, Silverline,
  Granite, Lakeside, Frontier, Beacon, Meridian, Sterling, Riverside, Cornerstone, Apex, Crescent, Heritage,
  Prairie, Coastal, Ironwood, Oakmont, Bluewater, Clearview, Highpoint, Westfield, Eastgate, Sunbelt, Tristate,
  Midland, Bayview, Stonebridge, Copperline, Pinecrest, Riverbend, Brightpath, Trailhead, Fairway, Cedar Point,
  Golden Gate, Lone Star, Great Lakes, Allegheny, Piedmont, Sierra, Gulfstream
`
  .trim()
  .split(/\s*,\s*/);

interface Industry {
  name: string;
  titles: readonly string[];
}

const INDUSTRIES = Weighted.of<Industry>([
  [
    {
      name: 'Health Partners',
      titles: ['Registered Nurse', 'Medical Assistant', 'Physician', 'Billing Specialist', 'Practice Manager'],
    },
    12,
  ],
  [
    {
      name: 'Medical Center',
      titles: ['Registered Nurse', 'Nurse Practitioner', 'Pharmacist', 'Lab Technician', 'Patient Care Technician'],
    },
    10,
  ],
  [
    {
      name: 'Logistics',
      titles: ['Truck Driver', 'Warehouse Associate', 'Dispatcher', 'Operations Manager', 'Forklift Operator'],
    },
    9,
  ],
  [
    {
      name: 'Financial Group',
      titles: ['Financial Advisor', 'Accountant', 'Loan Officer', 'Teller', 'Branch Manager'],
    },
    8,
  ],
  [
    {
      name: 'Software',
      titles: ['Software Engineer', 'Product Manager', 'Data Analyst', 'QA Engineer', 'IT Support Specialist'],
    },
    8,
  ],
  [{ name: 'Construction', titles: ['Carpenter', 'Electrician', 'Project Manager', 'Estimator', 'Laborer'] }, 8],
  [
    {
      name: 'Manufacturing',
      titles: ['Machine Operator', 'Quality Inspector', 'Plant Manager', 'Maintenance Technician', 'Welder'],
    },
    8,
  ],
  [
    {
      name: 'School District',
      titles: ['Teacher', 'Teaching Assistant', 'Principal', 'School Counselor', 'Bus Driver'],
    },
    8,
  ],
  [{ name: 'Realty', titles: ['Real Estate Agent', 'Broker', 'Property Manager', 'Office Administrator'] }, 5],
  [
    {
      name: 'Insurance Agency',
      titles: ['Insurance Agent', 'Claims Adjuster', 'Underwriter', 'Customer Service Representative'],
    },
    5,
  ],
  [{ name: 'Auto Group', titles: ['Sales Consultant', 'Service Advisor', 'Auto Technician', 'Finance Manager'] }, 5],
  [{ name: 'Foods', titles: ['Store Manager', 'Cashier', 'Line Cook', 'Shift Supervisor', 'Buyer'] }, 7],
  [{ name: 'Energy', titles: ['Lineman', 'Field Technician', 'Engineer', 'Customer Service Representative'] }, 4],
  [{ name: 'Legal Services', titles: ['Attorney', 'Paralegal', 'Legal Assistant', 'Office Manager'] }, 3],
  [{ name: 'Marketing', titles: ['Marketing Manager', 'Graphic Designer', 'Account Executive', 'Copywriter'] }, 3],
  [{ name: 'Credit Union', titles: ['Teller', 'Member Services Representative', 'Loan Officer', 'Branch Manager'] }, 3],
  [{ name: 'Engineering', titles: ['Civil Engineer', 'Mechanical Engineer', 'Drafter', 'Project Engineer'] }, 3],
  [{ name: 'Landscaping', titles: ['Landscaper', 'Crew Leader', 'Irrigation Technician', 'Owner'] }, 2],
  [{ name: 'Hospitality', titles: ['Front Desk Agent', 'Housekeeper', 'Server', 'General Manager'] }, 4],
  [
    {
      name: 'Retail',
      titles: ['Sales Associate', 'Store Manager', 'Cashier', 'Stock Associate', 'Visual Merchandiser'],
    },
    7,
  ],
]);

const FORMS = Weighted.of<string>([
  ['', 5],
  [' LLC', 3],
  [' Inc', 3],
  [' Co', 1],
]);

export interface Employer {
  name: string;
  domain: string;
  title: string;
}

export function pickEmployer(rng: Rng): Employer {
  const word = rng.pick(WORDS);
  const industry = INDUSTRIES.pick(rng);
  const name = `${word} ${industry.name}${FORMS.pick(rng)}`;
  const first = industry.name.split(' ')[0]!;
  const domain = `${`${word}${first}`.toLowerCase().replace(/[^a-z]/g, '')}.com`;
  return { name, domain, title: rng.pick(industry.titles) };
}
