// The Mantine components of the signed-out screens (login with both request forms, and the account pages):
// their stylesheets only, about a fifth of the whole (components/mantine-styles.ts, which the signed-in shell
// loads). main.tsx already has the base styles, Button, Center, Loader, Paper, Stack, Text and Title. A
// browser test checks that every Mantine class these screens render has its styles
// (e2e/tests/public-site.spec.ts), so a component added without its stylesheet is caught.
// In the order of Mantine's full stylesheet: a component's styles come after those of the parts it is made of.
import '@mantine/core/styles/VisuallyHidden.css';
import '@mantine/core/styles/ActionIcon.css';
import '@mantine/core/styles/CloseButton.css';
import '@mantine/core/styles/Group.css';
import '@mantine/core/styles/Input.css';
import '@mantine/core/styles/Alert.css';
import '@mantine/core/styles/Anchor.css';
// NativeSelect's chevron.
import '@mantine/core/styles/Combobox.css';
import '@mantine/core/styles/InlineInput.css';
import '@mantine/core/styles/Checkbox.css';
import '@mantine/core/styles/Container.css';
import '@mantine/core/styles/Divider.css';
import '@mantine/core/styles/Grid.css';
import '@mantine/core/styles/List.css';
import '@mantine/core/styles/PasswordInput.css';
import '@mantine/core/styles/SimpleGrid.css';
import '@mantine/core/styles/ThemeIcon.css';
