"""Training and adaptation: what builds and refits the models. Serving never imports this package (the app's
adaptation job loads it when one runs); `fanshot.vision` holds what reads a photo."""
