export { MyOutcomesCard } from './components/my-outcomes-card.tsx';
export { OutcomesSection } from './components/outcomes-section.tsx';
