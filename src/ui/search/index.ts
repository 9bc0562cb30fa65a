// The Search side view: search and replace across the workspace's files.
import { createElement } from "react";
import type { PanelContribution } from "../app";
import { SEARCH_PANEL_ID, SearchPanel } from "./search-panel";

export { SearchPanel, SEARCH_PANEL_ID, isSearchShortcut } from "./search-panel";
export * from "./workspace-search";

/** The "Search" tab of the side panel. */
export const searchPanelContribution: PanelContribution = {
  id: SEARCH_PANEL_ID,
  title: "Search",
  order: 50,
  render: (services) =>
    createElement(SearchPanel, {
      files: services.files,
      documents: services.documents,
      dialogs: services.dialogs,
      notifications: services.notifications,
      show: () => services.showPanel(SEARCH_PANEL_ID),
    }),
};
