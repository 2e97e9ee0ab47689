"""Language models: provider-neutral messages, model ids and the provider clients."""
