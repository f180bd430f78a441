"""Synthetic photos of revealed winning hands, with YOLO labels in the detector's 43 classes.

    art.py      art sources (Debian packages, fonts), their licences, and `fanshot art` (fetch + rasterise)
    faces.py    face images: the standard face size, cropping sheets and font glyphs, drawn faces, the cache
    layout.py   a score request -> tiles placed on the table (concealed row, melds, concealed kongs, flowers)
    scene.py    camera, tile bodies, table textures, light, shadows, blur, noise -> an image and tile polygons
    looks.py    `--randomise`: framing and tile width, camera roll and tilt, body, background, photo effects
    variants.py `--randomise`: face variants (Japanese style, flowers, red fives, 白, corner indices, ink)
    backgrounds.py  photographs for `--randomise` backgrounds, fetched into the art cache with their licences
    dataset.py  `fanshot synth`: many scenes in parallel -> images, labels, sidecar requests, crops
"""
